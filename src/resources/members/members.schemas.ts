import { requiring, Type, type Static, type TSchema } from '../../http/schema.js';
import { looseBody, schemaBody, type BodyOf } from '../../http/parse-body.js';

/** Labels, tiers, newsletters: objects naming one of `keys`, or a bare string (a name). */
function relationItems<P extends Record<string, TSchema>>(base: string, keys: P) {
  const named = Type.Partial(Type.Object(keys), { anyOf: Object.keys(keys).map((key) => ({ required: [key] })) });
  return Type.Array(Type.Union([named, Type.String({ maxLength: 191 })]), { $base: base });
}

const ID = Type.String({ maxLength: 24 });
const NAME = Type.String({ maxLength: 191 });
const SLUG = Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 191 });
const TIERS = relationItems('members#/definitions/member-products', { id: ID, name: NAME, slug: SLUG });

/**
 * The writable member fields of `@tryghost/admin-api-schema` (`members.json`), in its order (the order
 * decides which failure is reported first). Anything else in the body is dropped. `subscriptions` is
 * accepted and ignored, as Ghost ignores it.
 */
const MEMBER = Type.Partial(
  Type.Object(
    {
      name: Type.String({ maxLength: 191, pattern: '^([^,]|$)' }),
      email: Type.String({ minLength: 1, maxLength: 191, pattern: '^([^,]|$)' }),
      note: Type.String({ minLength: 0, maxLength: 2000 }),
      subscribed: Type.Boolean(),
      comped: Type.Boolean(),
      stripe_customer_id: Type.String(),
      subscriptions: Type.Array(Type.Unknown()),
      labels: relationItems('members#/definitions/member-labels', { id: ID, name: NAME, slug: SLUG }),
      products: TIERS,
      tiers: TIERS,
      newsletters: relationItems('members#/definitions/member-newsletters', { id: ID, name: NAME }),
    },
    { $base: 'members#/definitions/member', additionalProperties: false },
  ),
);

export const MEMBER_ADD = schemaBody('members', requiring(MEMBER, ['email']));
export const MEMBER_EDIT = schemaBody('members', MEMBER);
export type MemberInput = Static<typeof MEMBER>;
/** A label, tier or newsletter as a member body names it. */
export type RelationRef = string | { id?: string; name?: string; slug?: string | null };

/** `include` on browse and read (`tiers` and `products` are one relation; `email_recipients` is not stored here). */
export const MEMBER_INCLUDES = ['email_recipients', 'products', 'tiers'] as const;

/** `PUT /members/bulk/`: `{"bulk": {"action", "meta", "newsletter"}}`; Ghost checks the action and its meta itself. */
export const MEMBER_BULK = looseBody(
  Type.Object({
    action: Type.Optional(Type.Unknown()),
    meta: Type.Optional(Type.Unknown()),
    newsletter: Type.Optional(Type.Unknown()),
  }),
  { key: 'bulk' },
);
export type MemberBulkInput = BodyOf<typeof MEMBER_BULK>;
