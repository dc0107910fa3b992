// The body of a correction (PATCH with If-Match): the record's fields, each optional, and the reason, declared once.
import Type, { type TNull, type TOptional, type TProperties, type TSchema, type TUnion } from 'typebox';
import { closed, ReasonSchema } from './fieldSchemas.js';

/** A field a correction may clear: its value, or null. */
export const clearable = <S extends TSchema>(schema: S): TUnion<[S, TNull]> =>
  Type.Union([schema, Type.Null()], { description: 'null clears it' });

type Optionals<P extends TProperties> = { [K in keyof P]: TOptional<P[K]> };

/** The body of a correction: any of the record's fields (each optional, at least one sent) and the reason. */
export function correctionBody<P extends TProperties>(fields: P) {
  const optionals = Object.fromEntries(Object.entries(fields).map(([name, schema]) => [name, Type.Optional(schema)])) as Optionals<P>;
  return closed({ ...optionals, reason: ReasonSchema }, { minProperties: 2 });
}
