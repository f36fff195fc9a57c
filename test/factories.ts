import { randomBytes } from 'node:crypto';
import { lexicalDocument, lexicalParagraph } from './fixtures/lexical.mjs';
import type { RoleName } from '../src/auth/roles.js';
import { requestCtx, type Ctx } from '../src/ctx.js';
import { ctxBaseFromConfig } from '../src/ctx-base.js';
import type { Actor } from '../src/auth/actor.js';
import type { Mail } from '../src/mail/mailer.js';
import { acceptInvitation } from '../src/resources/authentication/authentication.invitation.js';
import { addIntegration } from '../src/resources/integrations/integrations.service.js';
import { addInvite } from '../src/resources/invites/invites.service.js';
import { addPost } from '../src/resources/posts/posts.service.js';
import type { PostInput, PostType } from '../src/resources/posts/posts.schemas.js';
import { addTag } from '../src/resources/tags/tags.service.js';
import type { TagInput } from '../src/resources/tags/tags.schemas.js';
import { addMember } from '../src/resources/members/members.service.js';
import type { MemberInput } from '../src/resources/members/members.schemas.js';
import { addLabel } from '../src/resources/labels/labels.service.js';
import type { LabelInput } from '../src/resources/labels/labels.schemas.js';
import { addTier } from '../src/resources/tiers/tiers.service.js';
import type { TierInput } from '../src/resources/tiers/tiers.schemas.js';
import { addNewsletter } from '../src/resources/newsletters/newsletters.service.js';
import type { NewsletterInput } from '../src/resources/newsletters/newsletters.schemas.js';
import { addOffer } from '../src/resources/offers/offers.service.js';
import type { OfferInput } from '../src/resources/offers/offers.schemas.js';
import { addWebhook } from '../src/resources/webhooks/webhooks.service.js';
import type { WebhookInput } from '../src/resources/webhooks/webhooks.schemas.js';
import type { Keys } from './support.js';
import type { TestSite } from './test-site.js';

/**
 * What a test starts from, made the way the API makes it: each factory calls the resource's service with
 * its defaults, acting as the site's Owner, so a made row is what a client would have got and follows the
 * schema when it changes. The flows under test still go through HTTP.
 */

export const STAFF_PASSWORD = 'Staff-secret-pass-1';

export interface StaffUser {
  id: string;
  email: string;
  name: string;
  slug: string;
  password: string;
}

let made = 0;
const unique = () => `${++made}${randomBytes(3).toString('hex')}`;

/**
 * A ctx acting as the Owner (their latest session), on the site's database. `mailbox` receives what the
 * services send: a factory's mail is not the test's, so it stays out of the site's outbox.
 */
async function ownerCtx(t: TestSite, mailbox: Mail[] = []): Promise<Ctx> {
  const user = await t.db.selectFrom('users').selectAll().where('id', '=', '1').executeTakeFirstOrThrow();
  const session = await t.db.selectFrom('sessions').selectAll().where('user_id', '=', '1').orderBy('created_at', 'desc').executeTakeFirst();
  if (!session) throw new Error('factories act as the Owner: log the Owner in first (useTestSite with setup: full does)');
  const actor: Actor = { kind: 'session', user, role: 'Owner', session, apiKey: null };
  // The site's configured parts (storage, secrets), its clock, and a mailbox of the factory's own.
  const base = ctxBaseFromConfig(t.config, t.connection, console, {
    clock: t.clock,
    mailer: { fromAddress: 'noreply@127.0.0.1', send: async (mail) => void mailbox.push(mail) },
  });
  return requestCtx(base, actor);
}

/**
 * A staff user of `role`, invited by the Owner and accepting through the invites and authentication
 * services. They have never logged in, so their first login needs no device code (as in Ghost).
 */
export async function makeStaff(t: TestSite, role: Exclude<RoleName, 'Owner'>, { name }: { name?: string } = {}): Promise<StaffUser> {
  const id = unique();
  const email = `${role.toLowerCase().replace(/\s/g, '-')}-${id}@example.com`;
  const mailbox: Mail[] = [];
  const ctx = await ownerCtx(t, mailbox);
  await addInvite(ctx, { email, role_id: t.roleId(role) });
  const token = /\/ghost\/signup\/([A-Za-z0-9_-]+)\//.exec(mailbox[0]!.text)![1]!;
  await acceptInvitation(ctx, { token, email, name: name ?? `${role} ${id}`, password: STAFF_PASSWORD });
  const user = await t.db.selectFrom('users').select(['id', 'email', 'name', 'slug']).where('email', '=', email).executeTakeFirstOrThrow();
  return { ...user, password: STAFF_PASSWORD };
}

export { lexicalDocument, lexicalParagraph };

/** An html card shown on the web to visitors (`nonMember`) and to `memberSegment`, in e-mail to every member. */
const gatedCard = (html: string, nonMember: boolean, memberSegment: string) => ({
  type: 'html',
  version: 1,
  html,
  visibility: { web: { nonMember, memberSegment }, email: { memberSegment: 'status:free,status:-free' } },
});

/** A paragraph for everyone, then blocks for visitors only, for members (free and paid) and for paid members. */
export const GATED_BLOCKS = lexicalDocument(
  lexicalParagraph('Open words.'),
  gatedCard('<p>Only visitors see this.</p>', true, ''),
  gatedCard('<p>Only members see this.</p>', false, 'status:free,status:-free'),
  gatedCard('<p>Paid only.</p>', false, 'status:-free'),
);

/** A Lexical document of one paragraph holding `text`, as the editor saves it. */
export const lexicalOf = (text: string) => lexicalDocument(lexicalParagraph(text));

export interface PostFields extends Omit<PostInput, 'authors' | 'tags'> {
  /** Author ids, first is primary (default: the Owner). */
  authors?: string[];
  /** Tag names or `{ id }`s, first is primary. */
  tags?: (string | { id: string })[];
}

/** A post (draft unless `status` says otherwise) by the posts service; returns its id. */
export async function makePost(t: TestSite, fields: PostFields = {}, type: PostType = 'post'): Promise<string> {
  const { authors, ...rest } = fields;
  const input = { title: `${type === 'post' ? 'Post' : 'Page'} ${unique()}`, ...rest, ...(authors ? { authors: authors.map((id) => ({ id })) } : {}) };
  return (await addPost(await ownerCtx(t), type, input as PostInput, { source: null })).id;
}

export const makePage = (t: TestSite, fields: PostFields = {}) => makePost(t, fields, 'page');

/** A tag by the tags service; returns its id. */
export async function makeTag(t: TestSite, fields: TagInput = {}): Promise<string> {
  return (await addTag(await ownerCtx(t), { name: `Tag ${unique()}`, ...fields })).id;
}

/** A custom integration by the integrations service: its id, admin key (`<id>:<secret>`) and content key. */
export async function makeIntegration(t: TestSite, name = `Integration ${unique()}`): Promise<Keys> {
  const integration = await addIntegration(await ownerCtx(t), { name });
  const keys = await t.db.selectFrom('api_keys').select(['id', 'type', 'secret']).where('integration_id', '=', integration.id).execute();
  const admin = keys.find((key) => key.type === 'admin')!;
  return { integrationId: integration.id, adminKey: `${admin.id}:${admin.secret}`, contentKey: keys.find((key) => key.type === 'content')!.secret };
}

/** A member by the members service (free, subscribed to the default newsletters); returns its id. */
export async function makeMember(t: TestSite, fields: MemberInput = {}): Promise<string> {
  return addMember(await ownerCtx(t), { email: `member-${unique()}@example.com`, ...fields });
}

/** A member label by the labels service; returns its id. */
export async function makeLabel(t: TestSite, fields: LabelInput = {}): Promise<string> {
  return (await addLabel(await ownerCtx(t), { name: `Label ${unique()}`, ...fields })).id;
}

/** A paid tier by the tiers service (monthly and yearly prices in USD unless given); returns its id. */
export async function makeTier(t: TestSite, fields: TierInput = {}): Promise<string> {
  const input = { name: `Tier ${unique()}`, currency: 'usd', monthly_price: 500, yearly_price: 5000, ...fields };
  return (await addTier(await ownerCtx(t), input as TierInput & { name: string })).tier.id;
}

/** A newsletter by the newsletters service (existing members not opted in); returns its id. */
export async function makeNewsletter(t: TestSite, fields: NewsletterInput = {}): Promise<string> {
  return (await addNewsletter(await ownerCtx(t), { name: `Newsletter ${unique()}`, ...fields }, { optInExisting: false })).newsletter.id;
}

/** An offer on the site's paid tier by the offers service (a 10% monthly discount unless given); returns its id. */
export async function makeOffer(t: TestSite, fields: OfferInput = {}): Promise<string> {
  const tier = await t.db.selectFrom('products').select(['id', 'name']).where('type', '=', 'paid').orderBy('created_at').executeTakeFirstOrThrow();
  const id = unique();
  const input = { name: `Offer ${id}`, code: `offer-${id}`, cadence: 'month', type: 'percent', amount: 10, duration: 'once', currency: null, tier, ...fields };
  return (await addOffer(await ownerCtx(t), input as OfferInput)).id;
}

/** A webhook of `event` on a new custom integration, by the webhooks service; returns its id. */
export async function makeWebhook(t: TestSite, fields: WebhookInput & { event: string; target_url: string }): Promise<string> {
  const integration = fields.integration_id ?? (await makeIntegration(t)).integrationId;
  return (await addWebhook(await ownerCtx(t), { ...fields, integration_id: integration }, { allowPrivate: true })).id;
}
