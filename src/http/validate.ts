import { errors } from '../errors.js';

/** `id` URL parameters: Ghost's loose global rule (24 hex, `1`, or anything containing `me`). */
export function assertIdParam(id: string): void {
  if (!/^[a-f\d]{24}$|^1$|me/i.test(id)) throw errors.validation({ message: 'Validation (matches) failed for id', context: 'undefined.id' });
}

/** `slug` URL parameters: Ghost's `isSlug` (lower-case only), with its `undefined.slug` context. */
export function assertSlugParam(slug: string): void {
  if (!/^[a-z0-9\-_]+$/.test(slug)) throw errors.validation({ message: 'Validation (isSlug) failed for slug', context: 'undefined.slug' });
}
