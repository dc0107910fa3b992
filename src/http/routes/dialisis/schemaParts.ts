// TypeBox parts the Dialisis schemas share: a closed object naming its required keys, free text, a measured value in its
// hard range (domain.md 2.12), so each body's TypeScript type is inferred from its one declaration.
import Type, { type TObject, type TObjectOptions, type TOptional, type TProperties, type TSchema } from 'typebox';
import { freeText } from '../../commonSchemas.js';

type Closed<P extends TProperties, R extends keyof P> = { [K in keyof P]: K extends R ? P[K] : TOptional<P[K]> };

/** A closed object (additionalProperties false): every property required, or only those `required` names. */
export function obj<P extends TProperties, const R extends keyof P = keyof P>(
  properties: P,
  required?: readonly R[],
  options: TObjectOptions = {},
): TObject<Closed<P, R>> {
  const keys = new Set<PropertyKey>(required ?? Object.keys(properties));
  const props = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, keys.has(k) ? v : Type.Optional(v)])) as Closed<P, R>;
  return Type.Object(props, { additionalProperties: false, ...options });
}

/** Free text (notes, narratives): tab and line breaks allowed, other control characters never (textRules.ts). */
export { freeText };

/** The schema with another description (a field reusing a shared shape). */
export const described = <S extends TSchema>(schema: S, description: string): S => ({ ...schema, description });
