import { errors } from '../errors.js';

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
