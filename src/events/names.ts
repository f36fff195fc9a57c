/**
 * Every event a write records, with its payload's type: the outbox takes only these names (`EventRecorder`).
 * Webhooks subscribe to the same names; payloads are Ghost's `{<resource>: {current, previous}}`.
 */

/** A resource as its webhook payload carries it (the Admin API shape, or Ghost's serialiser's). */
export type Snapshot = Record<string, unknown>;

/** `current` is the resource after the write (`{}` after a delete); `previous` the prior values of what changed. */
export interface Change {
  current: Snapshot;
  previous: Snapshot;
}

type ChangeOf<K extends string> = { [key in K]: Change };

export const POST_EVENT_SUFFIXES = [
  'added',
  'edited',
  'deleted',
  'published',
  'published.edited',
  'unpublished',
  'scheduled',
  'unscheduled',
  'rescheduled',
  'tag.attached',
  'tag.detached',
] as const;
export type PostEventSuffix = (typeof POST_EVENT_SUFFIXES)[number];

type CrudEvent = 'added' | 'edited' | 'deleted';

export type EventPayloads = { 'site.changed': Record<string, never> } & { [N in `post.${PostEventSuffix}`]: ChangeOf<'post'> } & {
  [N in `page.${PostEventSuffix}`]: ChangeOf<'page'>;
} & { [N in `tag.${CrudEvent}`]: ChangeOf<'tag'> } & { [N in `member.${CrudEvent}`]: ChangeOf<'member'> };

export type EventName = keyof EventPayloads;

/**
 * The `previous` of an `*.edited` payload: the prior value of each key whose value changed, in the order of
 * `keys` (all of `before`'s keys unless given). Values are compared as JSON unless `same` says otherwise.
 */
export function previousValues(
  before: Snapshot,
  after: Snapshot,
  options: { keys?: readonly string[]; same?: (key: string, was: unknown, is: unknown) => boolean } = {},
): Snapshot {
  const same = options.same ?? ((_key, was, is) => JSON.stringify(was) === JSON.stringify(is));
  const keys = options.keys ?? Object.keys(before);
  return Object.fromEntries(keys.filter((key) => !same(key, before[key], after[key])).map((key) => [key, before[key]]));
}
