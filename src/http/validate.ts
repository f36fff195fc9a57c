import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { errors, type GhostError } from '../errors.js';

/** `.posts[0].title` from ajv 8's `/posts/0/title`: Ghost reports ajv 6's dataPath notation. */
function dataPath(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part.replace(/~1/g, '/').replace(/~0/g, '~')}`))
    .join('');
}

/**
 * Fastify schema failures rendered as `@tryghost/admin-api-schema` renders them: `Validation failed for <key>.`,
 * the key being the last segment of the first error's path, and every ajv error in `details`.
 */
export function schemaValidationError(validation: FastifySchemaValidationError[], context: string): GhostError {
  if (context !== 'body') {
    const first = validation[0]!;
    const key = (first.params as { missingProperty?: string }).missingProperty ?? first.instancePath.split('/').pop() ?? context;
    return errors.validation(`Validation (matches) failed for ${key}`);
  }
  const details = validation.map((error) => ({
    keyword: error.keyword,
    dataPath: dataPath(error.instancePath),
    schemaPath: error.schemaPath,
    params: error.params,
    message: error.message?.replace(/^must /, 'should '),
  }));
  const key = details[0]!.dataPath.split('.').pop() || 'body';
  return errors.validation({ message: `Validation failed for ${key}.`, property: key, details });
}

/** `id` URL parameters: Ghost's loose global rule (24 hex, `1`, or anything containing `me`). */
export function assertIdParam(id: string): void {
  if (!/^[a-f\d]{24}$|^1$|me/i.test(id)) throw errors.validation({ message: 'Validation (matches) failed for id', context: 'undefined.id' });
}

/** The api-framework's body root check for add/edit: `{"<docName>": [ {...} ]}`. */
export function firstOfRoot<T = Record<string, unknown>>(body: unknown, docName: string): T {
  const root = (body as Record<string, unknown> | null | undefined)?.[docName];
  const first = Array.isArray(root) ? root[0] : undefined;
  if (!first || typeof first !== 'object' || Object.keys(first).length === 0) {
    throw errors.badRequest(`No root key ('${docName}') provided.`);
  }
  return first as T;
}
