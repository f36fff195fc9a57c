import { createHash, createHmac } from 'node:crypto';
import type { MemberRow } from '../../db/schema.js';
import { isoDate } from '../../content/dates.js';
import { presentLabel } from '../labels/labels.present.js';
import { presentTierRelation } from '../tiers/tiers.present.js';
import type { MemberRelations, MemberTier } from './members.queries.js';

export interface MemberView {
  siteUrl: string;
  /** `members_email_auth_secret`: signs the unsubscribe link. */
  validationKey: string;
  /** Browse shows tiers only with `include=tiers` (or `products`); read, add and edit always do. */
  withTiers: boolean;
  withEmailRecipients: boolean;
  /** When the complimentary subscriptions say they started: Ghost's fallback without a product event, now. */
  now: Date;
  /** Read, add and edit show where each member came from (its sign-up event); browse does not. */
  attributions?: Map<string, MemberAttribution>;
}

/** Where a member came from, as its sign-up event records it (Ghost's `attribution`). */
export interface MemberAttribution {
  id: string | null;
  type: string | null;
  url: string | null;
  title: string | null;
  referrer_source: string | null;
  referrer_medium: string | null;
  referrer_url: string | null;
}

/** Gravatar's address for the e-mail, with Ghost's options (a blank image when there is none). */
export function gravatarUrl(email: string): string {
  const hash = createHash('md5').update(email.toLowerCase().trim()).digest('hex');
  return `https://www.gravatar.com/avatar/${hash}?s=250&r=g&d=blank`;
}

/** `<site>/unsubscribe/?uuid=…&key=…`, the key an HMAC of the uuid, so the link cannot be forged. */
function unsubscribeUrl(siteUrl: string, uuid: string | null, key: string): string {
  const url = new URL('unsubscribe/', siteUrl);
  if (uuid) {
    url.searchParams.set('uuid', uuid);
    url.searchParams.set('key', createHmac('sha256', key).update(uuid).digest('hex'));
  } else {
    url.searchParams.set('preview', '1');
  }
  return url.toString();
}

/** A member's tier: the product row with the link's expiry, as Ghost's member model loads it. */
function presentMemberTier(tier: MemberTier) {
  return { ...presentTierRelation(tier, tier.currency), expiry_at: isoDate(tier.expiry_at) };
}

/**
 * The subscription Ghost synthesises for a tier held without a Stripe subscription (a comped tier).
 * Without Stripe every tier a member holds is one of these.
 */
function complimentarySubscription(member: MemberRow, tier: MemberTier, now: Date) {
  return {
    id: '',
    tier: presentMemberTier(tier),
    customer: { id: '', name: member.name, email: member.email },
    plan: { id: '', nickname: 'Complimentary', interval: 'year', currency: 'USD', amount: 0 },
    status: 'active',
    start_date: now.toISOString(),
    default_payment_card_last4: '****',
    cancel_at_period_end: false,
    cancellation_reason: null,
    current_period_end: isoDate(tier.expiry_at),
    price: {
      id: '',
      price_id: '',
      nickname: 'Complimentary',
      amount: 0,
      interval: 'year',
      type: 'recurring',
      currency: 'USD',
      tier: { id: '', tier_id: tier.id },
    },
    offer: null,
  };
}

/** The Admin API member, in the key order of Ghost's members serializer. */
export function presentMember(member: MemberRow, relations: MemberRelations, view: MemberView) {
  const tiers = relations.tiers.get(member.id) ?? [];
  const newsletters = relations.newsletters.get(member.id) ?? [];
  return {
    id: member.id,
    uuid: member.uuid,
    email: member.email,
    name: member.name,
    note: member.note,
    geolocation: member.geolocation,
    // Computed, as Ghost overrides the column: subscribed to at least one active newsletter.
    subscribed: newsletters.length > 0,
    created_at: isoDate(member.created_at),
    updated_at: isoDate(member.updated_at),
    labels: (relations.labels.get(member.id) ?? []).map((label) => presentLabel(label)),
    subscriptions: tiers.map((tier) => complimentarySubscription(member, tier, view.now)),
    avatar_image: gravatarUrl(member.email),
    comped: member.status === 'comped',
    email_count: member.email_count,
    email_opened_count: member.email_opened_count,
    email_open_rate: member.email_open_rate,
    // No e-mails are sent here, so no member has recipients.
    ...(view.withEmailRecipients ? { email_recipients: [] } : {}),
    status: member.status,
    last_seen_at: isoDate(member.last_seen_at),
    // Null for a member without a sign-up event (an imported one).
    ...(view.attributions ? { attribution: view.attributions.get(member.id) ?? null } : {}),
    unsubscribe_url: unsubscribeUrl(view.siteUrl, member.uuid, view.validationKey),
    ...(view.withTiers ? { tiers: tiers.map(presentMemberTier) } : {}),
    email_suppression: { suppressed: member.email_disabled, info: null },
    newsletters: newsletters.map((n) => ({ id: n.id, name: n.name, description: n.description, status: n.status })),
  };
}

export type PresentedMember = ReturnType<typeof presentMember>;
