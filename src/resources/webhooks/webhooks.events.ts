/**
 * The events a webhook can subscribe to: the 29 names Ghost 5 (5.130.6's `services/webhooks/listen.js`) and
 * Ghost 6 fire, the same list in both. Ghost stores any other lower-case name and never calls it; Quire refuses
 * one (README, Errors), so a typo is found when the webhook is saved rather than when nothing arrives.
 */
export const WEBHOOK_EVENTS = [
  'site.changed',
  'post.added',
  'post.deleted',
  'post.edited',
  'post.published',
  'post.published.edited',
  'post.unpublished',
  'post.scheduled',
  'post.unscheduled',
  'post.rescheduled',
  'page.added',
  'page.deleted',
  'page.edited',
  'page.published',
  'page.published.edited',
  'page.unpublished',
  'page.scheduled',
  'page.unscheduled',
  'page.rescheduled',
  'tag.added',
  'tag.edited',
  'tag.deleted',
  'member.added',
  'member.deleted',
  'member.edited',
  'post.tag.attached',
  'post.tag.detached',
  'page.tag.attached',
  'page.tag.detached',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

const KNOWN: ReadonlySet<string> = new Set(WEBHOOK_EVENTS);

export const isWebhookEvent = (name: string): name is WebhookEvent => KNOWN.has(name);
