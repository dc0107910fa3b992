// Reserves an e-mail address for one user, forever.
import type { CommandEnvelope, Decider } from '../../decider.js';
import { rule } from '../../decider.js';
import { uuidV5 } from '../../eventIds.js';
import type { EmailGuardEvent } from './events.js';

export interface EmailGuardState {
  userId: string | null;
}

export type EmailGuardCommand = CommandEnvelope<'ReserveEmail', { email: string; userId: string }>;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Aggregate id of the guard stream of an e-mail. */
export function emailGuardId(email: string): string {
  return uuidV5(`userEmail\u0000${normalizeEmail(email)}`);
}

export const emailGuardDecider: Decider<EmailGuardCommand, EmailGuardEvent, EmailGuardState> = {
  category: 'userEmail',
  initialState: { userId: null },
  evolve: (_s, e) => ({ userId: e.data.userId }),
  decide(cmd, s) {
    if (s.userId !== null) throw rule('email-taken', 'a user with this e-mail already exists');
    return [{ type: 'EmailReserved', data: { email: normalizeEmail(cmd.data.email), userId: cmd.data.userId } }];
  },
};
