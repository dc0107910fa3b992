// Sessions by id: authenticate reads one document per request (a single `get`).
import { applyTo, type Projection } from '../runner/projection.js';
import { PLATFORM_DOCS } from '../../stores/readStore.js';
import { categoryOfStream } from '../../stores/eventStore.js';
import type { SessionEvent } from '../../commands/platform/session/events.js';
import { SIGN_IN_SESSION_CATEGORY } from '../../commands/platform/session/events.js';
import { aggregateIdOf, SESSIONS, type SessionDoc } from './platformReadModels.js';

type Fold = Omit<SessionDoc, '_position'>;

/** Category of the sign-in session streams (the platform session decider's). */

export const sessionsProjection: Projection = {
  name: SESSIONS.projection,
  version: 1,
  collections: { [SESSIONS.collection]: [{ keys: { userId: 1 }, name: 'by_user' }] },
  eventTypes: [
    'SessionStarted',
    'CompanySelected',
    'SessionRefreshed',
    'SessionActivityRecorded',
    'LoggedOut',
    'SessionRevoked',
    'SessionExpired',
  ],
  async handle(event, tx) {
    // A dialysis session's SessionStarted shares the name: only the sign-in sessions' own streams count here.
    if (categoryOfStream(event.streamName) !== SIGN_IN_SESSION_CATEGORY) return;
    const e = { type: event.type, data: event.data } as SessionEvent;
    await applyTo<SessionDoc>(tx, SESSIONS.collection, PLATFORM_DOCS, aggregateIdOf(event), event, (doc): Fold | null => {
      if (e.type === 'SessionStarted') {
        const d = e.data;
        return {
          tenantId: PLATFORM_DOCS,
          id: d.sessionId,
          userId: d.userId,
          email: d.email,
          platformAdmin: d.platformAdmin,
          companyId: null,
          startedAt: d.startedAt,
          expiresAt: d.expiresAt,
          idleTimeoutSeconds: d.idleTimeoutSeconds,
          lastActivityAt: d.startedAt,
          endedReason: null,
          endedAt: null,
        };
      }
      if (!doc) return null;
      switch (e.type) {
        case 'CompanySelected':
          return { ...doc, companyId: e.data.companyId };
        case 'SessionRefreshed':
        case 'SessionActivityRecorded':
          return { ...doc, lastActivityAt: e.data.at };
        case 'LoggedOut':
          return { ...doc, endedReason: 'logout', endedAt: e.data.at };
        case 'SessionRevoked':
        case 'SessionExpired':
          return { ...doc, endedReason: e.data.reason, endedAt: e.data.at };
      }
    });
  },
};
