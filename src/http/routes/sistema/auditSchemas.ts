// The shape of one audit trail entry as GET /sistema/auditoria answers it.
import Type from 'typebox';

const nullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const AuditEntrySchema = Type.Object(
  {
    id: Type.String({ description: 'The event of the entry' }),
    at: Type.String({ format: 'date-time', description: 'When (UTC); for folded repeated reads, the first' }),
    lastAt: Type.String({ format: 'date-time', description: 'The last of the reads folded into this entry (= at otherwise)' }),
    count: Type.Integer({ minimum: 1, description: 'Reads folded into this entry' }),
    kind: Type.Union([Type.Literal('read'), Type.Literal('change'), Type.Literal('account')]),
    action: Type.String({ description: 'Event type, or read / write for reads and refused attempts' }),
    outcome: Type.Union(['allowed', 'succeeded', 'denied', 'not-found', 'failed'].map((o) => Type.Literal(o))),
    actor: Type.String({ description: "User id or API client id; 'system' for the service's own work" }),
    sessionId: nullableString('Sign-in session'),
    ip: nullableString('Client address'),
    userAgent: nullableString('Client user agent'),
    correlationId: Type.String({ description: 'Correlation id of the request (X-Request-Id)' }),
    reason: nullableString('Why, when the change gave a reason'),
    route: nullableString('Route template of a read or attempt'),
    method: nullableString('HTTP method of a read or attempt'),
    status: Type.Union([Type.Integer(), Type.Null()], { description: 'HTTP status of a read or attempt' }),
    recordType: nullableString('Record type'),
    recordId: nullableString('Record id'),
    patientIds: Type.Array(Type.String(), { description: 'Patients the entry concerns' }),
    position: Type.String({ description: 'Global position of the event in the log' }),
  },
  { additionalProperties: false },
);
