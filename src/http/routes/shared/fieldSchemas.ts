// Field schemas every group's routes share: ids, dates, bounded text, the reason of a change. TypeBox values, so a
// route's handler input is typed from them.
import Type, {
  type TNull,
  type TObject,
  type TObjectOptions,
  type TProperties,
  type TSchema,
  type TString,
  type TUnion,
  type TUnsafe,
} from 'typebox';

export const text = (maxLength: number, description?: string): TString =>
  Type.String({ minLength: 1, maxLength, ...(description ? { description } : {}) });
export const DateSchema = Type.String({ format: 'date', description: 'Calendar date YYYY-MM-DD' });
export const DateTimeSchema = Type.String({ format: 'date-time', description: 'Instant, ISO-8601 with offset' });
export const IdSchema = Type.String({ format: 'uuid' });
export const ReasonSchema = text(500, 'Why: recorded with the event and shown in the history');

/** The schema, or null. */
export const nullable = <S extends TSchema>(schema: S): TUnion<[S, TNull]> => Type.Union([schema, Type.Null()]);

/** A closed object: a property not declared is refused (422 naming it). */
export const closed = <P extends TProperties>(properties: P, options: TObjectOptions = {}): TObject<P> =>
  Type.Object(properties, { additionalProperties: false, ...options });

/** A string or null, as JSON Schema's `type: ['string', 'null']` (views). */
export const StringOrNull = Type.Unsafe<string | null>({ type: ['string', 'null'] });
/** A number or null, as JSON Schema's `type: ['number', 'null']` (views). */
export const NumberOrNull = Type.Unsafe<number | null>({ type: ['number', 'null'] });
/** A string or null, as `type: ['string', 'null']` (options: format, description...). */
export const stringOrNull = (options: Record<string, unknown> = {}): TUnsafe<string | null> =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], ...options });

/** Path parameters of a record route: its id. */
export const IdParams = closed({ id: IdSchema });

/** The body of a change that needs only its reason (deactivate, reactivate, cancel...). */
export const ReasonBody = closed({ reason: ReasonSchema });

/** A tax id: its kind (RUC, RFC, NIT...) and its number, described by the group that checks it. */
export const taxIdSchema = (numberDescription: string, options: TObjectOptions = {}) =>
  closed(
    {
      type: Type.String({
        minLength: 2,
        maxLength: 10,
        description: 'RUC (PE), RFC (MX), NIT (CO), RUT (CL), CUIT (AR); other countries: OTHER',
      }),
      number: Type.String({ minLength: 3, maxLength: 30, description: numberDescription }),
    },
    options,
  );
