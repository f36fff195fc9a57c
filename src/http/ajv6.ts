import type { TSchema } from '@sinclair/typebox';

/**
 * The subset of JSON Schema that `@tryghost/admin-api-schema` uses, evaluated the way its ajv 6 instance
 * does (`allErrors`, `removeAdditional`, fast formats): unknown properties of an object that declares
 * `additionalProperties: false` are removed in place, and every failure is reported with ajv 6's keyword,
 * dataPath, schemaPath, params and message, so error bodies carry the same `details` as Ghost's.
 */
interface Schema {
  type?: JsonType | readonly JsonType[];
  enum?: readonly string[];
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  format?: keyof typeof FORMATS;
  properties?: Readonly<Record<string, Schema>>;
  additionalProperties?: false;
  required?: readonly string[];
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  anyOf?: readonly Schema[];
  allOf?: readonly Schema[];
  /** Where ajv 6 reports paths inside this node from (a `$ref` target restarts the schema path). */
  $base?: string;
}

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

export interface SchemaErrorDetail {
  keyword: string;
  dataPath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message: string;
}

// ajv 6 "fast" format regexes, as Ghost's validator uses them.
const FORMATS = {
  'date-time': (value: string) => /^\d\d\d\d-[0-1]\d-[0-3]\d[t\s](?:[0-2]\d:[0-5]\d:[0-5]\d|23:59:60)(?:\.\d+)?(?:z|[+-]\d\d(?::?\d\d)?)$/i.test(value),
  'uri-reference': (value: string) => /^(?:(?:[a-z][a-z0-9+\-.]*:)?\/?\/)?(?:[^\\\s#][^\s#]*)?(?:#[^\\\s]*)?$/i.test(value),
  'json-string': (value: string) => {
    try {
      JSON.parse(value);
      return true;
    } catch {
      return false;
    }
  },
} as const;

function typeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

function matchesType(value: unknown, types: readonly JsonType[]): boolean {
  const actual = typeOf(value);
  return types.includes(actual) || (actual === 'integer' && types.includes('number'));
}

/** Code points, as ajv counts string length. */
const lengthOf = (value: string) => [...value].length;

function check(schema: Schema, data: unknown, dataPath: string, schemaPath: string, out: SchemaErrorDetail[]): void {
  const path = schema.$base ?? schemaPath;
  const fail = (keyword: string, params: Record<string, unknown>, message: string, at = dataPath) =>
    out.push({ keyword, dataPath: at, schemaPath: `${path}/${keyword}`, params, message });

  if (schema.type !== undefined) {
    const types = typeof schema.type === 'string' ? [schema.type] : schema.type;
    if (!matchesType(data, types)) fail('type', { type: types.join(',') }, `should be ${types.join(',')}`);
  }
  if (typeof data === 'string') {
    // A string has at most as many code points as UTF-16 units and at least half as many: counting them
    // (a pass over the whole string, long for a 20 MB document) is needed only near the limit.
    if (schema.maxLength !== undefined && data.length > schema.maxLength && lengthOf(data) > schema.maxLength) {
      fail('maxLength', { limit: schema.maxLength }, `should NOT be longer than ${schema.maxLength} characters`);
    }
    if (schema.minLength !== undefined && data.length / 2 < schema.minLength && lengthOf(data) < schema.minLength) {
      fail('minLength', { limit: schema.minLength }, `should NOT be shorter than ${schema.minLength} characters`);
    }
    if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(data)) {
      fail('pattern', { pattern: schema.pattern }, `should match pattern "${schema.pattern}"`);
    }
    if (schema.format !== undefined && !FORMATS[schema.format](data)) {
      fail('format', { format: schema.format }, `should match format "${schema.format}"`);
    }
  }
  if (Array.isArray(data)) {
    if (schema.maxItems !== undefined && data.length > schema.maxItems) {
      fail('maxItems', { limit: schema.maxItems }, `should NOT have more than ${schema.maxItems} items`);
    }
    if (schema.minItems !== undefined && data.length < schema.minItems) {
      fail('minItems', { limit: schema.minItems }, `should NOT have fewer than ${schema.minItems} items`);
    }
    if (schema.items) data.forEach((item, i) => check(schema.items!, item, `${dataPath}[${i}]`, `${path}/items`, out));
  }
  if (typeOf(data) === 'object') {
    const object = data as Record<string, unknown>;
    for (const key of schema.required ?? []) {
      if (!(key in object)) fail('required', { missingProperty: key }, `should have required property '${key}'`);
    }
    if (schema.properties) {
      if (schema.additionalProperties === false) {
        for (const key of Object.keys(object)) if (!(key in schema.properties)) delete object[key];
      }
      for (const [key, sub] of Object.entries(schema.properties)) {
        if (key in object && object[key] !== undefined) check(sub, object[key], `${dataPath}.${key}`, `${path}/properties/${key}`, out);
      }
    }
  }
  if (schema.enum !== undefined && !schema.enum.includes(data as string)) {
    fail('enum', { allowedValues: schema.enum }, 'should be equal to one of the allowed values');
  }
  if (schema.anyOf) {
    const branchErrors: SchemaErrorDetail[] = [];
    const passed = schema.anyOf.some((sub, i) => {
      const before = branchErrors.length;
      check(sub, data, dataPath, `${path}/anyOf/${i}`, branchErrors);
      return branchErrors.length === before;
    });
    if (!passed) {
      out.push(...branchErrors);
      fail('anyOf', {}, 'should match some schema in anyOf');
    }
  }
  schema.allOf?.forEach((sub, i) => check(sub, data, dataPath, `${path}/allOf/${i}`, out));
}

/**
 * The failures of `data` against `schema` in ajv 6's order and wording; unknown properties of objects
 * that declare `additionalProperties: false` are removed from `data` in place.
 */
export function ajv6Errors(schema: TSchema, data: unknown): SchemaErrorDetail[] {
  const details: SchemaErrorDetail[] = [];
  check(schema as Schema, data, '', '#', details);
  return details;
}
