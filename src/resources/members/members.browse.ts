import { sql } from 'kysely';
import { queryFields } from '../../browse/fields.js';
import { browseSpecOf, columnOrder } from '../../browse/spec-of.js';
import type { FilterRules } from '../../filter/filter.js';
import type { FilterSpec } from '../../filter/spec.js';
import { LABEL_FIELDS } from '../labels/labels.fields.js';
import { NEWSLETTER_FIELDS } from '../newsletters/newsletters.fields.js';
import { TIER_FIELDS } from '../tiers/tiers.fields.js';
import { MEMBER_FIELDS, MEMBER_LABEL_COLUMNS, MEMBER_NEWSLETTER_COLUMNS, MEMBER_TIER_COLUMNS } from './members.fields.js';

/**
 * Members (`core/server/models/member.js`: filterRelations, filterExpansions). Relations Ghost has and we do
 * not store (Stripe subscriptions, signups, conversions, e-mails, offer redemptions) are accepted and dropped.
 */
export const MEMBERS_FILTER: FilterSpec = {
  table: 'members',
  fields: queryFields(MEMBER_FIELDS),
  relations: {
    labels: {
      kind: 'manyToMany',
      table: 'labels',
      fields: queryFields(LABEL_FIELDS),
      joinTable: 'members_labels',
      joinFrom: 'member_id',
      joinTo: 'label_id',
      joinFields: MEMBER_LABEL_COLUMNS,
    },
    products: {
      kind: 'manyToMany',
      table: 'products',
      fields: queryFields(TIER_FIELDS),
      joinTable: 'members_products',
      joinFrom: 'member_id',
      joinTo: 'product_id',
      joinFields: MEMBER_TIER_COLUMNS,
    },
    newsletters: {
      kind: 'manyToMany',
      table: 'newsletters',
      fields: queryFields(NEWSLETTER_FIELDS),
      joinTable: 'members_newsletters',
      joinFrom: 'member_id',
      joinTo: 'newsletter_id',
      joinFields: MEMBER_NEWSLETTER_COLUMNS,
    },
    subscriptions: { kind: 'ignored' },
    signups: { kind: 'ignored' },
    conversions: { kind: 'ignored' },
    emails: { kind: 'ignored' },
    email_recipients: { kind: 'ignored' },
    offer_redemptions: { kind: 'ignored' },
  },
  expansions: [
    { key: 'label', replacement: 'labels.slug' },
    { key: 'labels', replacement: 'labels.slug' },
    { key: 'product', replacement: 'products.slug' },
    { key: 'products', replacement: 'products.slug' },
    { key: 'tier', replacement: 'products.slug' },
    { key: 'tiers', replacement: 'products.slug' },
    { key: 'tier_id', replacement: 'products.id' },
    { key: 'newsletters', replacement: 'newsletters.slug' },
  ],
};

/**
 * The members input serializer's `subscribed` mapping: `subscribed:true` means an active newsletter
 * subscription, `subscribed:false` none (a negated relation statement, so members without any match).
 * Ghost's `tiers.slug` is our `products.slug`, as its model calls the relation `products`.
 */
export const MEMBERS_FILTER_RULES: FilterRules = {
  rewrite: (value, key) => {
    if (key === 'subscribed') {
      if (value === true) return { 'newsletters.status': 'active' };
      if (value === false) return { 'newsletters.status': { $ne: 'active' } };
      return { [key]: value };
    }
    if (key.startsWith('tiers.')) return { [`products.${key.slice('tiers.'.length)}`]: value };
    return { [key]: value };
  },
};

const column = columnOrder('members', MEMBER_FIELDS);

/** Admin API only; `created_at DESC, id DESC` unless `order` says otherwise; `search` matches name or e-mail. */
export const MEMBERS_BROWSE = browseSpecOf('members', MEMBER_FIELDS, {
  filter: MEMBERS_FILTER,
  alwaysRead: ['id', 'uuid', 'email', 'status', 'email_disabled'],
  api: {
    admin: {
      filter: MEMBERS_FILTER_RULES,
      defaultOrder: () => [column('created_at', 'desc'), column('id', 'desc')],
      // Ghost's `LIKE %q%` on name or e-mail; lower-cased on both sides so every engine matches as MySQL does.
      search: (eb, text) => {
        const pattern = `%${text.toLowerCase()}%`;
        return eb.or([eb(sql`lower(members.name)`, 'like', pattern), eb(sql`lower(members.email)`, 'like', pattern)]);
      },
    },
  },
});
