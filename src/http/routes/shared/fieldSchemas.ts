// Field schemas every group's routes share: ids, dates, bounded text, the reason of a change. TypeBox values, so a
// route's handler input is typed from them.
import Type, { type TSchema, type TString, type TUnion, type TNull, type TUnsafe } from 'typebox';
import { freeText } from '../../commonSchemas.js';

export const text = (maxLength: number, description?: string): TString =>
  Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) });
/** Text where tab and line breaks are allowed (commonSchemas' freeText, typed). */
export const freeTextField = (maxLength: number, description?: string): TUnsafe<string> =>
  Type.Unsafe<string>(freeText(maxLength, description));
export const DateSchema = Type.String({ format: 'date', description: 'Calendar date YYYY-MM-DD' });
export const DateTimeSchema = Type.String({ format: 'date-time', description: 'Instant, ISO-8601 with offset' });
export const IdSchema = Type.String({ format: 'uuid' });
export const ReasonSchema = text(500, 'Why: recorded with the event and shown in the history');

/** The schema, or null. */
export const nullable = <S extends TSchema>(schema: S): TUnion<[S, TNull]> => Type.Union([schema, Type.Null()]);

/** A string or null, as `type: ['string', 'null']` (options: format, description...). */
export const stringOrNull = (options: Record<string, unknown> = {}): TUnsafe<string | null> =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], ...options });

/** Path parameters of a record route: its id. */
export const IdParams = Type.Object({ id: IdSchema }, { additionalProperties: false });

/** The body of a change that needs only its reason (deactivate, reactivate, cancel...). */
export const ReasonBody = Type.Object({ reason: ReasonSchema }, { additionalProperties: false });
