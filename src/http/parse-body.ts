import type { FastifyRequest } from 'fastify';
import { errors } from '../errors.js';
import { ajv6Errors } from './ajv6.js';
import { Type, type Static, type TObject, type TSchema } from './schema.js';

/**
 * How one endpoint reads its body. Every route reads its body through `parseBody(request, SPEC)`, which
 * validates it and returns the typed input; services never see the raw body.
 */
export interface BodySpec<T> {
  readonly read: (body: unknown, urlId: string | undefined) => T;
}

/** The input type a spec gives: what the route passes on to the service. */
export type BodyOf<B> = B extends BodySpec<infer T> ? T : never;

export function parseBody<T>(request: FastifyRequest, spec: BodySpec<T>): T {
  return spec.read(request.body, (request.params as { id?: string } | undefined)?.id);
}

interface EnvelopeOptions<T> {
  /** api-framework's root check (`No root key (…) provided.`, 400); admin-api-schema posts and tags skip it. */
  rootCheck?: boolean;
  /** `edit`: after the root check, an `id` in the body must be the URL's (`Invalid id provided.`, 400). */
  matchUrlId?: boolean;
  /** A rule across fields (Ghost's resource input validators), run once the fields have passed. */
  check?: (item: T) => void;
}

type Item = Record<string, unknown>;

/** The api-framework's root check: `{"<docName>": [ {non-empty object} ]}`. */
function firstItem(body: unknown, docName: string): Item {
  const root = (body as Record<string, unknown> | null | undefined)?.[docName];
  const first = Array.isArray(root) ? root[0] : undefined;
  if (!first || typeof first !== 'object' || Object.keys(first).length === 0) {
    throw errors.badRequest(`No root key ('${docName}') provided.`);
  }
  return first as Item;
}

function matchUrlId(item: Item, urlId: string | undefined): void {
  if (urlId && item.id && item.id !== urlId) throw errors.badRequest('Invalid id provided.');
}

/**
 * A body validated by an admin-api-schema JSON schema (posts, pages, tags): `{"<docName>": [item]}` with
 * exactly one item; unknown fields removed; failures are 422 `Validation failed for <key>.` with ajv 6's
 * `details`, the key being the first failure's property (the docName when the root itself fails); then an
 * optional cross-field check.
 */
export function schemaBody<S extends TSchema>(docName: string, item: S, options: EnvelopeOptions<Static<S>> = {}): BodySpec<Static<S>> {
  const envelope = Type.Object({ [docName]: Type.Array(item, { minItems: 1, maxItems: 1 }) }, { additionalProperties: false });
  return {
    read(body, urlId) {
      if (options.rootCheck) {
        const first = firstItem(body, docName);
        if (options.matchUrlId) matchUrlId(first, urlId);
      }
      const details = ajv6Errors(envelope, body);
      if (details.length > 0) {
        const key = details[0]!.dataPath ? details[0]!.dataPath.split('.').pop()! : docName;
        throw errors.validation({ message: `Validation failed for ${key}.`, property: key, details });
      }
      const input = (body as Record<string, Static<S>[]>)[docName]![0]!;
      options.check?.(input);
      return input;
    },
  };
}

/**
 * A body that Ghost checks only at the api-framework level: the root check, then the item's required
 * fields (every missing one listed as `FieldIsRequired`, else every null one as `FieldIsInvalid`), then an
 * optional cross-field check. Values are not checked here: the model does that (`<resource>.rules.ts`).
 */
export function frameBody<S extends TObject>(docName: string, item: S, options: Omit<EnvelopeOptions<Static<S>>, 'rootCheck'> = {}): BodySpec<Static<S>> {
  const required: readonly string[] = item.required ?? [];
  return {
    read(body, urlId) {
      const first = firstItem(body, docName);
      const missing = required.filter((key) => first[key] === undefined);
      if (missing.length) throw errors.validation(`Validation (FieldIsRequired) failed for ${JSON.stringify(missing)}`);
      const nulls = required.filter((key) => first[key] === null);
      if (nulls.length) throw errors.validation(`Validation (FieldIsInvalid) failed for ${JSON.stringify(nulls)}`);
      if (options.matchUrlId) matchUrlId(first, urlId);
      const input = first as Static<S>;
      options.check?.(input);
      return input;
    },
  };
}

/** Where a loose body's fields are: the body itself, one of its keys, or the first item of an envelope. */
type LooseAt = { key: string } | { firstOf: string } | undefined;

const objectOrNothing = (value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Item) : undefined);

/**
 * A body read as it comes, for endpoints that Ghost does not validate before their own checks (login,
 * bulk actions, password-reset requests): the item's declared fields of the object found `at`, none when
 * there is no object. The fields are typed `unknown` in the schema; the service decides what they must be,
 * with Ghost's messages.
 */
export function looseBody<S extends TObject>(item: S, at?: LooseAt): BodySpec<Static<S>> {
  const keys = Object.keys(item.properties);
  return {
    read(body) {
      let value: unknown = body;
      if (at && 'key' in at) value = objectOrNothing(body)?.[at.key];
      if (at && 'firstOf' in at) {
        const root = objectOrNothing(body)?.[at.firstOf];
        value = Array.isArray(root) ? root[0] : undefined;
      }
      const object = objectOrNothing(value) ?? {};
      return Object.fromEntries(keys.filter((key) => key in object).map((key) => [key, object[key]])) as Static<S>;
    },
  };
}
