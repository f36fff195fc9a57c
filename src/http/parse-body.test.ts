import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { GhostError } from '../errors.js';
import { frameBody, looseBody, parseBody, schemaBody } from './parse-body.js';
import { nullableString, requiring, Type, uncheckedFields } from './schema.js';

const request = (body: unknown, id?: string) => ({ body, params: id ? { id } : {} }) as unknown as FastifyRequest;
const failure = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    const { status, message, property, details } = err as GhostError;
    return { status, message, property, details };
  }
  throw new Error('expected a failure');
};

describe('schemaBody', () => {
  const ITEM = Type.Partial(
    Type.Object({ name: Type.String({ maxLength: 3 }), note: nullableString(2) }, { additionalProperties: false, $base: 'things#/definitions/thing' }),
  );
  const ADD = schemaBody('things', requiring(ITEM, ['name']), { rootCheck: true, matchUrlId: true });

  it('returns the one item with unknown fields removed', () => {
    expect(parseBody(request({ things: [{ name: 'ab', other: 1 }], extra: true }), ADD)).toEqual({ name: 'ab' });
  });

  it('reports every failure with ajv 6 details, named after the first', () => {
    expect(failure(() => parseBody(request({ things: [{ name: 'abcd', note: 5 }] }), ADD))).toEqual({
      status: 422,
      message: 'Validation failed for name.',
      property: 'name',
      details: [
        {
          keyword: 'maxLength',
          dataPath: '.things[0].name',
          schemaPath: 'things#/definitions/thing/properties/name/maxLength',
          params: { limit: 3 },
          message: 'should NOT be longer than 3 characters',
        },
        {
          keyword: 'type',
          dataPath: '.things[0].note',
          schemaPath: 'things#/definitions/thing/properties/note/type',
          params: { type: 'string,null' },
          message: 'should be string,null',
        },
      ],
    });
  });

  it('checks the root and the URL id before the schema when asked to', () => {
    expect(failure(() => parseBody(request({ things: [] }), ADD))).toMatchObject({ status: 400, message: "No root key ('things') provided." });
    expect(failure(() => parseBody(request({ things: [{ id: 'b', name: 'abcd' }] }, 'a'), ADD))).toMatchObject({
      status: 400,
      message: 'Invalid id provided.',
    });
  });
});

describe('frameBody', () => {
  const SPEC = frameBody('things', Type.Object({ b: Type.Unknown(), a: Type.Unknown(), c: Type.Optional(Type.Unknown()) }), {
    check: (item) => {
      if (item.a === item.b) throw new GhostError('ValidationError', { message: 'same' });
    },
  });

  it('lists missing fields first, then null ones, in declared order, then runs the cross-field check', () => {
    expect(failure(() => parseBody(request({ things: [{ c: 1 }] }), SPEC)).message).toBe('Validation (FieldIsRequired) failed for ["b","a"]');
    expect(failure(() => parseBody(request({ things: [{ a: null, b: null }] }), SPEC)).message).toBe('Validation (FieldIsInvalid) failed for ["b","a"]');
    expect(failure(() => parseBody(request({ things: [{ a: 1, b: 1 }] }), SPEC)).message).toBe('same');
    expect(parseBody(request({ things: [{ a: 1, b: 2 }] }), SPEC)).toEqual({ a: 1, b: 2 });
  });
});

describe('looseBody', () => {
  const FIELDS = uncheckedFields(['token']);
  it('reads the body, a key or the first item of an envelope, and {} for anything else', () => {
    expect(parseBody(request({ token: 'x' }), looseBody(FIELDS))).toEqual({ token: 'x' });
    expect(parseBody(request(null), looseBody(FIELDS))).toEqual({});
    expect(parseBody(request({ bulk: { token: 'x' } }), looseBody(FIELDS, { key: 'bulk' }))).toEqual({ token: 'x' });
    expect(parseBody(request({ bulk: 'x' }), looseBody(FIELDS, { key: 'bulk' }))).toEqual({});
    expect(parseBody(request({ a: [{ token: 'x' }] }), looseBody(FIELDS, { firstOf: 'a' }))).toEqual({ token: 'x' });
    expect(parseBody(request({ a: { token: 'x' } }), looseBody(FIELDS, { firstOf: 'a' }))).toEqual({});
  });
});
