// Users by id, with a unique e-mail index: the login lookup and GET /auth/me.
import { applyTo, type Projection } from '../runner/projection.js';
import type { RecordedEvent } from '../../stores/eventStore.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { STEP_UP_PREFIX, type UserEvent } from '../../commands/platform/user/events.js';
import { aggregateIdOf, USERS, type UserDoc } from './platformReadModels.js';

type Fold = Omit<UserDoc, '_position'>;

/** The account an event of its stream leaves (the projection's fold; also a read of the user as it was). */
export function foldUser(doc: Fold | null, event: RecordedEvent): Fold | null {
  const e = { type: event.type, data: event.data } as UserEvent;
  const at = event.metadata.occurredAt;
  if (e.type === 'UserRegistered' || e.type === 'UserInvited') {
    const { userId, email, name } = e.data;
    return {
      tenantId: PLATFORM_DOCS,
      id: userId,
      email,
      name,
      platformAdmin: e.type === 'UserRegistered' && e.data.platformAdmin,
      active: true,
      activated: e.type === 'UserRegistered',
      totpStatus: 'none',
      registeredAt: at,
      lastSignInAt: null,
    };
  }
  if (!doc) return null;
  switch (e.type) {
    case 'UserActivated':
      return { ...doc, activated: true };
    case 'TotpEnrollmentStarted':
      return { ...doc, totpStatus: 'pending' };
    case 'TotpEnrollmentConfirmed':
      return { ...doc, totpStatus: 'confirmed' };
    case 'TotpCodeAccepted':
      // A step-up code (a password change) is not a sign-in.
      return e.data.challengeId.startsWith(STEP_UP_PREFIX) ? doc : { ...doc, lastSignInAt: at };
    case 'TwoFactorReset':
      return { ...doc, totpStatus: 'none', credentialsChangedAt: at, credentialsKeptSession: null };
    case 'PasswordChanged':
      return { ...doc, credentialsChangedAt: at, credentialsKeptSession: event.metadata.sessionId ?? null };
    case 'UserDeactivated':
      return { ...doc, active: false };
    default:
      return doc;
  }
}

export const usersProjection: Projection = {
  name: USERS.projection,
  version: 3,
  collections: { [USERS.collection]: [{ keys: { email: 1 }, unique: true, name: 'email_unique' }] },
  eventTypes: [
    'UserRegistered',
    'UserInvited',
    'UserActivated',
    'TotpEnrollmentStarted',
    'TotpEnrollmentConfirmed',
    'TotpCodeAccepted',
    'TwoFactorReset',
    'PasswordChanged',
    'UserDeactivated',
  ],
  async handle(event, tx) {
    await applyTo<UserDoc>(tx, USERS.collection, PLATFORM_DOCS, aggregateIdOf(event), event, (doc) => foldUser(doc, event));
  },
};
