import { Type, type Static, type TObject, type TSchema, type TUnknown, type TUnsafe } from '@sinclair/typebox';

/**
 * The one way request bodies are described: TypeBox builds the JSON schema and gives its static type.
 * Field shapes that `@tryghost/admin-api-schema` writes differently from TypeBox's own (a type list for
 * nullable values, `enum` for choices, `required` beside an `allOf`) are built here, because ajv 6 reports
 * failures by keyword and path: the schema's shape decides the error `details` a client sees.
 */
export { Type, type Static, type TObject, type TSchema };

const limit = (maxLength?: number) => (maxLength === undefined ? {} : { maxLength });

/** `{"type": ["string", "null"]}`, not TypeBox's `anyOf`: a number is then one `type` failure, as in Ghost. */
export const nullableString = (maxLength?: number): TUnsafe<string | null> => Type.Unsafe<string | null>({ type: ['string', 'null'], ...limit(maxLength) });

export const nullableUri = (maxLength: number): TUnsafe<string | null> =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'uri-reference', maxLength });

export const nullableDateTime = (): TUnsafe<string | null> => Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date-time' });

/** A string that must parse as JSON (mobiledoc, lexical). */
export const nullableJsonString = (maxLength: number): TUnsafe<string | null> =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'json-string', maxLength });

/** `{"type": "string", "enum": [...]}`: one `enum` failure naming the allowed values. */
export const stringEnum = <const V extends readonly string[]>(values: V): TUnsafe<V[number]> => Type.Unsafe<V[number]>({ type: 'string', enum: values });

/**
 * A shared definition with some of its fields required by one endpoint, written as admin-api-schema writes
 * it (`{"required": [...], "allOf": [definition]}`), so a missing field is reported before the definition's
 * own failures and with the endpoint's schema path.
 */
export function requiring<T extends TObject, K extends keyof Static<T> & string>(definition: T, keys: readonly K[]) {
  return Type.Unsafe<Static<T> & Required<Pick<Static<T>, K>>>({ type: 'object', required: keys, allOf: [definition] });
}

/** A value Ghost takes as it comes and checks later, in the model (`users.rules.ts` and the like). */
export const unchecked = () => Type.Unknown();

/** An object of fields Ghost takes as they come (all optional); the model checks them. */
export function uncheckedFields<const K extends readonly string[]>(keys: K) {
  const properties = Object.fromEntries(keys.map((key) => [key, Type.Unknown()])) as { [P in K[number]]: TUnknown };
  return Type.Partial(Type.Object(properties));
}
