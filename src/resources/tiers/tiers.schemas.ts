import { nullableString, stringEnum, Type, type Static } from '../../http/schema.js';
import { frameBody, schemaBody, type BodySpec } from '../../http/parse-body.js';

/** The writable tier fields of `@tryghost/admin-api-schema` (`tiers.json`); others (`type`, `id`) are dropped. */
const TIER = Type.Partial(
  Type.Object(
    {
      name: Type.String({ maxLength: 191 }),
      description: nullableString(191),
      slug: nullableString(191),
      welcome_page_url: nullableString(2000),
      active: Type.Boolean(),
      visibility: stringEnum(['public', 'none']),
      currency: nullableString(),
      monthly_price: Type.Unsafe<number | null>({ type: ['number', 'null'] }),
      yearly_price: Type.Unsafe<number | null>({ type: ['number', 'null'] }),
      trial_days: Type.Unsafe<number | null>({ type: ['number', 'null'] }),
      benefits: Type.Unsafe<string[] | null>({ type: ['array', 'null'], items: { type: 'string' } }),
    },
    { $base: 'tiers#/definitions/tier', additionalProperties: false },
  ),
);
export type TierInput = Static<typeof TIER>;

const ITEM = schemaBody('tiers', TIER, { rootCheck: true });
const NAMED = frameBody('tiers', Type.Object({ name: Type.Unknown() }));

/** Add: the root check, then `name` required (the controller's check), then the schema. */
export const TIER_ADD: BodySpec<TierInput & { name: string }> = {
  read(body, urlId) {
    NAMED.read(body, urlId);
    return ITEM.read(body, urlId) as TierInput & { name: string };
  },
};
export const TIER_EDIT = ITEM;

/** What the Content API always embeds (and the Admin API shows anyway). */
export const TIER_INCLUDES = ['monthly_price', 'yearly_price', 'benefits'] as const;
