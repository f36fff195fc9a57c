import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { ADMIN, OWNER, ghostError } from './support.js';
import { image, mp3, multipartBody, themeZip, type FilePart } from './uploads.js';
import { makePost, makeStaff, makeTag } from './factories.js';
import { call, makeCallers, type Caller } from './staff-support.js';
import { useTestSite } from './test-site.js';
import { objectId } from '../src/db/ids.js';
import { enqueueJob } from '../src/jobs/jobs.js';
import { DB_IMPORT_JOB } from '../src/resources/db/db.import-job.js';
import { DEFAULT_ROUTES_YAML } from '../src/resources/route-settings/route-settings.validate.js';

/**
 * Who may call each Admin endpoint (reference/endpoints.md): every staff role by session and by staff
 * token, and an integration key. One row per endpoint: `allowed` lists the roles holding the permission
 * (O A E Au C SE, and I for the integration); an integration outside Ghost's allow-list gets 501; staff
 * tokens carry their user's role. Rows for endpoints added later are one line each.
 */
const t = useTestSite();

interface Expect {
  status: number;
  type?: string;
  message?: string;
}

interface Row {
  method: NonNullable<InjectOptions['method']>;
  path: string;
  /** Builds the path and body for one call (fresh targets for writes). */
  prepare?: () => Promise<{ path?: string; body?: unknown }>;
  body?: unknown;
  /** A multipart body (uploads) instead of JSON, given what `prepare` made. */
  upload?: (prepared: { path?: string; body?: unknown }) => Promise<Record<string, string | FilePart>>;
  allowed: string;
  status: number;
  /** `listed`: integrations pass Ghost's allow-list and get `allowed`'s answer; `not listed`: 501. */
  integration: 'listed' | 'not listed';
  /** The refusal for a role without the permission (default 403 NoPermissionError). */
  refused?: Expect;
  /** Answers that differ from the row's rule for one kind of caller. */
  exceptions?: Partial<Record<'session' | 'staff' | 'integration', Expect>>;
  /** Puts things back after an allowed call (a logout, a global reset, an ownership transfer). */
  after?: (caller: Caller, callers: Caller[]) => Promise<void>;
}

const LETTERS: Record<string, string> = {
  Owner: 'O',
  Administrator: 'A',
  Editor: 'E',
  Author: 'Au',
  Contributor: 'C',
  'Super Editor': 'SE',
  'Admin Integration': 'I',
};
const NO_PERMISSION = (message?: string): Expect => ({ status: 403, type: 'NoPermissionError', message });
const STAFF_TOKEN_BLOCKED: Expect = { status: 403, type: 'NoPermissionError', message: 'Staff tokens are not allowed to access this endpoint' };
const URL_TOKEN_ONLY: Expect = { status: 401, type: 'UnauthorizedError', message: 'Invalid token: No token found in URL' };
const NOT_IMPLEMENTED: Expect = { status: 501, type: 'NotImplementedError' };

let fresh = 0;
const unique = (prefix: string) => `${prefix}-${++fresh}-${Date.now()}`;
const freshAuthor = async () => makeStaff(t, 'Author');
const freshIntegration = async () => {
  const res = await t.admin.post('/integrations/?include=api_keys', { integrations: [{ name: unique('integration') }] });
  return res.json().integrations[0] as { id: string; api_keys: { id: string }[] };
};
const freshInvite = async () => {
  const res = await t.admin.post('/invites/', { invites: [{ email: `${unique('invitee')}@example.com`, role_id: t.roleId('Author') }] });
  return res.json().invites[0].id as string;
};

/** A webhook of the test integration (the one the integration caller signs with), made by the Owner. */
const freshWebhook = async () => {
  const res = await t.admin.post('/webhooks/', {
    webhooks: [{ event: 'post.added', target_url: `https://203.0.113.10/${unique('hook')}`, integration_id: t.keys.integrationId }],
  });
  return res.json().webhooks[0].id as string;
};
/** A webhook with one past delivery (written straight to the tables: no receiver needed to name one). */
const freshDelivery = async () => {
  const webhookId = await freshWebhook();
  const at = new Date();
  const outboxId = objectId();
  await t.db
    .insertInto('outbox')
    .values({
      id: outboxId,
      event: 'post.added',
      resource_type: null,
      resource_id: null,
      payload: '{}',
      status: 'done',
      attempts: 0,
      available_at: at,
      lease_owner: null,
      lease_expires_at: null,
      created_at: at,
    })
    .execute();
  const id = objectId();
  await t.db
    .insertInto('webhook_deliveries')
    .values({
      id,
      webhook_id: webhookId,
      outbox_id: outboxId,
      event: 'post.added',
      event_at: at,
      status: 'delivered',
      attempts: 1,
      available_at: at,
      lease_owner: null,
      lease_expires_at: null,
      response_status: 200,
      error: null,
      latency_ms: 5,
      response_excerpt: 'ok',
      created_at: at,
      updated_at: at,
      delivered_at: at,
    })
    .execute();
  return { webhookId, id };
};

/** A post or page by the Owner, made through the API as the target of one call (an edit needs its `updated_at` as the API shows it). */
const freshPost = async (type: 'posts' | 'pages') => {
  const res = await t.admin.post(`/${type}/`, { [type]: [{ title: unique('target') }] });
  return res.json()[type][0] as { id: string; updated_at: string };
};
const freshTag = () => makeTag(t);
const freshLabel = async () => {
  const res = await t.admin.post('/labels/', { labels: [{ name: unique('label') }] });
  return res.json().labels[0] as { id: string; slug: string };
};
const freshNewsletter = async () => {
  const res = await t.admin.post('/newsletters/', { newsletters: [{ name: unique('newsletter') }] });
  return res.json().newsletters[0].id as string;
};
const freshOffer = async () => {
  const tier = await t.connection.db.selectFrom('products').select('id').where('slug', '=', 'default-product').executeTakeFirstOrThrow();
  const name = unique('o').slice(0, 40);
  const body = { offers: [{ name, code: name, type: 'percent', cadence: 'month', amount: 10, duration: 'once', tier: { id: tier.id } }] };
  return (await t.admin.post('/offers/', body)).json().offers[0].id as string;
};
const freshTier = async () => {
  const res = await t.admin.post('/tiers/', { tiers: [{ name: unique('tier'), currency: 'usd' }] });
  return res.json().tiers[0].id as string;
};
const freshMember = async () => {
  const res = await t.admin.post('/members/', { members: [{ email: `${unique('member')}@example.com` }] });
  return res.json().members[0].id as string;
};
/** A members import large enough for the background (the matrix runs no job runner: it stays pending). */
const freshImportJob = async () => {
  const rows = Array.from({ length: 501 }, (_, i) => `${unique('queued')}-${i}@example.com`);
  const res = await t.admin.upload('/members/upload/', { membersfile: { name: 'members.csv', type: 'text/csv', data: ['email', ...rows].join('\n') } });
  return /upload\/([a-f0-9]{24})\/$/.exec(res.headers.location as string)![1]!;
};
/**
 * A queued `POST /db/` job, written as the route writes it (the Owner's session of `t` has ended by the db rows,
 * and an integration may not import); the matrix runs no job runner, so it stays pending.
 */
const freshDbImportJob = () => enqueueJob(t.db, { kind: DB_IMPORT_JOB, payload: { file: 'data/imports/db-matrix.json' }, createdBy: null, now: new Date() });
/** A sent post's email row, as a publish with a newsletter leaves it (set up directly: the matrix sends nothing). */
const freshEmail = async () => {
  const postId = await makePost(t, { title: unique('emailed'), status: 'published' });
  const newsletter = await t.db.selectFrom('newsletters').select('id').orderBy('sort_order').executeTakeFirstOrThrow();
  const id = objectId();
  const at = new Date();
  await t.db
    .insertInto('emails')
    .values({
      id,
      post_id: postId,
      uuid: randomUUID(),
      status: 'submitted',
      recipient_filter: 'all',
      error: null,
      error_data: null,
      email_count: 0,
      delivered_count: 0,
      opened_count: 0,
      failed_count: 0,
      subject: 'Emailed',
      from: 'noreply@example.com',
      reply_to: null,
      html: null,
      plaintext: null,
      source: null,
      source_type: 'lexical',
      track_opens: false,
      track_clicks: false,
      feedback_enabled: false,
      submitted_at: at,
      newsletter_id: newsletter.id,
      created_at: at,
      created_by: '1',
      updated_at: at,
      updated_by: null,
    })
    .execute();
  return id;
};
const freshSnippet = async () => {
  const res = await t.admin.post('/snippets/', { snippets: [{ name: unique('snippet'), mobiledoc: '{}' }] });
  return res.json().snippets[0].id as string;
};

/** Rows for posts and pages: reads for everyone; writes to the Owner's post refused to Authors and Contributors (endpoints.md §3). */
function postRows(type: 'posts' | 'pages', one: 'post' | 'page'): Row[] {
  return [
    { method: 'GET', path: `/${type}/`, allowed: ALL, status: 200, integration: 'listed' },
    {
      method: 'GET',
      path: `/${type}/:id/`,
      prepare: async () => ({ path: `/${type}/${(await freshPost(type)).id}/` }),
      allowed: ALL,
      status: 200,
      integration: 'listed',
    },
    // Authors and Contributors must name themselves as the first author; this body names nobody.
    {
      method: 'POST',
      path: `/${type}/`,
      prepare: async () => ({ body: { [type]: [{ title: unique('new') }] } }),
      allowed: 'O A E SE I',
      status: 201,
      integration: 'listed',
      refused: NO_PERMISSION(`Permission error, cannot save ${one}.`),
    },
    {
      method: 'PUT',
      path: `/${type}/:id/`,
      prepare: async () => {
        const post = await freshPost(type);
        return { path: `/${type}/${post.id}/`, body: { [type]: [{ title: unique('edited'), updated_at: post.updated_at }] } };
      },
      allowed: 'O A E SE I',
      status: 200,
      integration: 'listed',
      refused: NO_PERMISSION(`Permission error, cannot edit ${one}.`),
    },
    {
      method: 'DELETE',
      path: `/${type}/:id/`,
      prepare: async () => ({ path: `/${type}/${(await freshPost(type)).id}/` }),
      allowed: 'O A E SE I',
      status: 204,
      integration: 'listed',
      refused: NO_PERMISSION(`Permission error, cannot delete ${one}.`),
    },
  ];
}

const ALL_STAFF = 'O A E Au C SE';
const ALL = 'O A E Au C SE I';

const ROWS: Row[] = [
  { method: 'GET', path: '/site/', allowed: ALL, status: 200, integration: 'listed' },
  { method: 'GET', path: '/config/', allowed: ALL, status: 200, integration: 'listed' },
  { method: 'GET', path: '/settings/', allowed: ALL, status: 200, integration: 'listed' },
  {
    method: 'PUT',
    path: '/settings/',
    body: { settings: [{ key: 'title', value: 'Test Site' }] },
    allowed: 'O A',
    status: 200,
    integration: 'not listed',
    refused: NO_PERMISSION('Permission error, cannot edit setting.'),
  },

  { method: 'GET', path: '/settings/routes/yaml/', allowed: ALL, status: 200, integration: 'listed' },
  {
    method: 'POST',
    path: '/settings/routes/yaml/',
    upload: async () => ({ routes: { name: 'routes.yaml', type: 'application/yaml', data: Buffer.from(DEFAULT_ROUTES_YAML) } }),
    allowed: 'O A I',
    status: 200,
    integration: 'not listed',
  },
  { method: 'GET', path: '/redirects/download/', allowed: 'O A I', status: 200, integration: 'not listed' },
  {
    method: 'POST',
    path: '/redirects/upload/',
    upload: async () => ({ redirects: { name: 'redirects.json', type: 'application/json', data: Buffer.from('[]') } }),
    allowed: 'O A I',
    status: 200,
    integration: 'not listed',
  },
  {
    method: 'GET',
    path: '/email_previews/posts/:id/',
    prepare: async () => ({ path: `/email_previews/posts/${(await freshPost('posts')).id}/` }),
    allowed: ALL,
    status: 200,
    integration: 'not listed',
  },
  {
    // Without MAIL_SMTP_URL the test copy is written to the mail folder; each allowed call counts against the
    // per-IP limit of ten (eight calls here).
    method: 'POST',
    path: '/email_previews/posts/:id/',
    prepare: async () => ({ path: `/email_previews/posts/${(await freshPost('posts')).id}/`, body: { emails: ['matrix@example.com'] } }),
    allowed: 'O A E SE I',
    status: 204,
    integration: 'not listed',
  },
  { method: 'GET', path: '/links/', allowed: 'O A I', status: 200, integration: 'not listed' },
  {
    method: 'PUT',
    path: '/links/bulk/',
    prepare: async () => ({
      path: `/links/bulk/?filter=${encodeURIComponent(`post_id:'${objectId()}'+to:'https://example.com/old'`)}`,
      body: { bulk: { action: 'updateLink', meta: { link: { to: 'https://example.com/new' } } } },
    }),
    allowed: 'O A I',
    status: 200,
    integration: 'not listed',
  },

  { method: 'GET', path: '/integrations/', allowed: 'O A', status: 200, integration: 'not listed' },
  {
    method: 'GET',
    path: '/integrations/:id/',
    prepare: async () => ({ path: `/integrations/${(await freshIntegration()).id}/` }),
    allowed: 'O A',
    status: 200,
    integration: 'not listed',
  },
  {
    method: 'POST',
    path: '/integrations/',
    prepare: async () => ({ body: { integrations: [{ name: unique('made') }] } }),
    allowed: 'O A',
    status: 201,
    integration: 'not listed',
  },
  {
    method: 'PUT',
    path: '/integrations/:id/',
    prepare: async () => ({ path: `/integrations/${(await freshIntegration()).id}/`, body: { integrations: [{ name: unique('renamed') }] } }),
    allowed: 'O A',
    status: 200,
    integration: 'not listed',
  },
  {
    method: 'POST',
    path: '/integrations/:id/api_key/:keyid/refresh/',
    prepare: async () => {
      const i = await freshIntegration();
      return { path: `/integrations/${i.id}/api_key/${i.api_keys[0]!.id}/refresh/`, body: { integrations: [{ id: i.id }] } };
    },
    allowed: 'O A',
    status: 200,
    integration: 'not listed',
  },
  {
    method: 'DELETE',
    path: '/integrations/:id/',
    prepare: async () => ({ path: `/integrations/${(await freshIntegration()).id}/` }),
    allowed: 'O A',
    status: 204,
    integration: 'not listed',
  },

  {
    method: 'POST',
    path: '/webhooks/',
    prepare: async () => ({
      body: { webhooks: [{ event: 'post.added', target_url: `https://203.0.113.10/${unique('made')}`, integration_id: t.keys.integrationId }] },
    }),
    allowed: 'O A I',
    status: 201,
    integration: 'listed',
  },
  {
    method: 'PUT',
    path: '/webhooks/:id/',
    prepare: async () => ({ path: `/webhooks/${await freshWebhook()}/`, body: { webhooks: [{ name: unique('renamed') }] } }),
    allowed: 'O A I',
    status: 200,
    integration: 'listed',
  },
  {
    method: 'DELETE',
    path: '/webhooks/:id/',
    prepare: async () => ({ path: `/webhooks/${await freshWebhook()}/` }),
    allowed: 'O A I',
    status: 204,
    integration: 'listed',
  },
  // Ghost's scheduler callback takes its token from `?token=` only: a session or an Authorization header is no
  // credential there. The roles by URL token are in src/resources/schedules/schedules.test.ts.
  {
    method: 'PUT',
    path: '/schedules/posts/:id/',
    prepare: async () => ({ path: `/schedules/posts/${objectId()}/` }),
    allowed: 'O A E SE I',
    status: 404,
    integration: 'listed',
    exceptions: { session: URL_TOKEN_ONLY, staff: URL_TOKEN_ONLY, integration: URL_TOKEN_ONLY },
  },
  // Quire's own: whoever may edit a webhook may read and repeat its deliveries.
  {
    method: 'GET',
    path: '/webhooks/:id/deliveries/',
    prepare: async () => ({ path: `/webhooks/${(await freshDelivery()).webhookId}/deliveries/` }),
    allowed: 'O A I',
    status: 200,
    integration: 'listed',
  },
  {
    method: 'POST',
    path: '/webhooks/:id/deliveries/:delivery_id/redeliver/',
    prepare: async () => {
      const delivery = await freshDelivery();
      return { path: `/webhooks/${delivery.webhookId}/deliveries/${delivery.id}/redeliver/` };
    },
    allowed: 'O A I',
    status: 201,
    integration: 'listed',
  },

  { method: 'GET', path: '/users/', allowed: ALL, status: 200, integration: 'listed' },
  { method: 'GET', path: '/users/1/', allowed: ALL, status: 200, integration: 'listed' },
  { method: 'GET', path: '/users/slug/owner/', allowed: ALL, status: 200, integration: 'listed' },
  { method: 'GET', path: `/users/email/${OWNER.email}/`, allowed: ALL, status: 200, integration: 'listed' },
  // An integration has no user to be `me` (Ghost: 404 User not found.).
  { method: 'GET', path: '/users/me/', allowed: ALL, status: 200, integration: 'listed', exceptions: { integration: { status: 404, type: 'NotFoundError' } } },
  // Ghost answers 500 here for an integration (it dereferences a missing user); Quire refuses with 403.
  {
    method: 'GET',
    path: '/users/me/token/',
    allowed: ALL,
    status: 200,
    integration: 'listed',
    exceptions: { integration: NO_PERMISSION('You do not have permission to perform this action') },
  },
  {
    method: 'PUT',
    path: '/users/me/token/',
    allowed: ALL_STAFF,
    status: 200,
    integration: 'not listed',
    after: async (caller, callers) => {
      for (const other of callers) if (other.user?.id === caller.user?.id && other.kind === 'staff') await other.renew();
    },
  },
  {
    method: 'PUT',
    path: '/users/password/',
    prepare: async () => ({ body: { password: [{ user_id: (await freshAuthor()).id, newPassword: 'Another-secret-1', ne2Password: 'Another-secret-1' }] } }),
    allowed: 'O A E SE',
    status: 200,
    integration: 'not listed',
    refused: NO_PERMISSION('You do not have permission to edit user'),
  },
  {
    method: 'PUT',
    path: '/users/owner/',
    prepare: async () => ({ body: { owner: [{ id: (await makeStaff(t, 'Administrator')).id }] } }),
    allowed: 'O',
    status: 200,
    integration: 'not listed',
    refused: NO_PERMISSION('You do not have permission to perform this action'),
    exceptions: { staff: STAFF_TOKEN_BLOCKED },
    after: async (caller) => {
      // Hand ownership back so the Owner callers stay the Owner.
      const { db } = t.connection;
      await db
        .updateTable('roles_users')
        .set({ role_id: t.roleId('Administrator') })
        .where('role_id', '=', t.roleId('Owner'))
        .execute();
      await db
        .updateTable('roles_users')
        .set({ role_id: t.roleId('Owner') })
        .where('user_id', '=', caller.user!.id)
        .execute();
    },
  },
  {
    method: 'PUT',
    path: '/users/:id/',
    prepare: async () => ({ path: `/users/${(await freshAuthor()).id}/`, body: { users: [{ bio: 'Edited' }] } }),
    allowed: 'O A E SE',
    status: 200,
    integration: 'not listed',
    refused: NO_PERMISSION('Permission error, cannot edit user.'),
  },
  {
    method: 'DELETE',
    path: '/users/:id/',
    prepare: async () => ({ path: `/users/${(await freshAuthor()).id}/` }),
    allowed: 'O A E SE',
    status: 200,
    integration: 'not listed',
    refused: NO_PERMISSION('Permission error, cannot delete user.'),
  },

  ...postRows('posts', 'post'),
  ...postRows('pages', 'page'),

  { method: 'GET', path: '/tags/', allowed: ALL, status: 200, integration: 'listed' },
  { method: 'GET', path: '/tags/:id/', prepare: async () => ({ path: `/tags/${await freshTag()}/` }), allowed: ALL, status: 200, integration: 'listed' },
  {
    method: 'POST',
    path: '/tags/',
    prepare: async () => ({ body: { tags: [{ name: unique('made-tag') }] } }),
    allowed: 'O A E Au SE I',
    status: 201,
    integration: 'listed',
    refused: NO_PERMISSION('Permission error, cannot save tag.'),
  },
  {
    method: 'PUT',
    path: '/tags/:id/',
    prepare: async () => ({ path: `/tags/${await freshTag()}/`, body: { tags: [{ description: 'Edited' }] } }),
    allowed: 'O A E SE I',
    status: 200,
    integration: 'listed',
    refused: NO_PERMISSION('Permission error, cannot edit tag.'),
  },
  {
    method: 'DELETE',
    path: '/tags/:id/',
    prepare: async () => ({ path: `/tags/${await freshTag()}/` }),
    allowed: 'O A E SE I',
    status: 204,
    integration: 'listed',
    refused: NO_PERMISSION('Permission error, cannot delete tag.'),
  },

  {
    method: 'GET',
    path: '/labels/',
    allowed: 'O A E Au SE I',
    status: 200,
    integration: 'listed',
    refused: NO_PERMISSION('Permission error, cannot list labels.'),
  },
  {
    method: 'GET',
    path: '/labels/:id/',
    prepare: async () => ({ path: `/labels/${(await freshLabel()).id}/` }),
    allowed: 'O A E Au SE I',
    status: 200,
    integration: 'listed',
    refused: NO_PERMISSION('Permission error, cannot read label.'),
  },
  {
    method: 'GET',
    path: '/labels/slug/:slug/',
    prepare: async () => ({ path: `/labels/slug/${(await freshLabel()).slug}/` }),
    allowed: 'O A E Au SE I',
    status: 200,
    integration: 'listed',
  },
  {
    method: 'POST',
    path: '/labels/',
    prepare: async () => ({ body: { labels: [{ name: unique('made-label') }] } }),
    allowed: 'O A SE I',
    status: 201,
    integration: 'listed',
    refused: NO_PERMISSION('Permission error, cannot save label.'),
  },
  {
    method: 'PUT',
    path: '/labels/:id/',
    prepare: async () => ({ path: `/labels/${(await freshLabel()).id}/`, body: { labels: [{ name: unique('renamed-label') }] } }),
    allowed: 'O A SE I',
    status: 200,
    integration: 'listed',
    refused: NO_PERMISSION('Permission error, cannot edit label.'),
  },
  {
    method: 'DELETE',
    path: '/labels/:id/',
    prepare: async () => ({ path: `/labels/${(await freshLabel()).id}/` }),
    allowed: 'O A SE I',
    status: 204,
    integration: 'listed',
    refused: NO_PERMISSION('Permission error, cannot delete label.'),
  },

  {
    method: 'GET',
    path: '/tiers/',
    allowed: 'O A E Au SE I',
    status: 200,
    integration: 'listed',
    refused: NO_PERMISSION('Permission error, cannot list tiers.'),
  },
  {
    method: 'GET',
    path: '/tiers/:id/',
    prepare: async () => ({ path: `/tiers/${await freshTier()}/` }),
    allowed: 'O A E Au SE I',
    status: 200,
    integration: 'listed',
    refused: NO_PERMISSION('Permission error, cannot read tier.'),
  },
  {
    method: 'POST',
    path: '/tiers/',
    prepare: async () => ({ body: { tiers: [{ name: unique('made-tier'), currency: 'eur' }] } }),
    allowed: 'O A I',
    status: 201,
    integration: 'listed',
    refused: NO_PERMISSION('Permission error, cannot save tier.'),
  },
  {
    method: 'PUT',
    path: '/tiers/:id/',
    prepare: async () => ({ path: `/tiers/${await freshTier()}/`, body: { tiers: [{ description: 'Edited' }] } }),
    allowed: 'O A I',
    status: 200,
    integration: 'listed',
    refused: NO_PERMISSION('Permission error, cannot edit tier.'),
  },

  {
    method: 'GET',
    path: '/newsletters/',
    allowed: 'O A E Au SE I',
    status: 200,
    integration: 'listed',
    refused: NO_PERMISSION('Permission error, cannot list newsletters.'),
  },
  {
    method: 'GET',
    path: '/newsletters/:id/',
    prepare: async () => ({ path: `/newsletters/${await freshNewsletter()}/` }),
    allowed: 'O A E Au SE I',
    status: 200,
    integration: 'listed',
  },
  {
    method: 'POST',
    path: '/newsletters/',
    prepare: async () => ({ body: { newsletters: [{ name: unique('made-newsletter') }] } }),
    allowed: 'O A I',
    status: 201,
    integration: 'listed',
    refused: NO_PERMISSION('Permission error, cannot save newsletter.'),
  },
  {
    method: 'PUT',
    path: '/newsletters/:id/',
    prepare: async () => ({ path: `/newsletters/${await freshNewsletter()}/`, body: { newsletters: [{ description: 'Edited' }] } }),
    allowed: 'O A I',
    status: 200,
    integration: 'listed',
    refused: NO_PERMISSION('Permission error, cannot edit newsletter.'),
  },

  { method: 'GET', path: '/offers/', allowed: 'O A SE I', status: 200, integration: 'listed', refused: NO_PERMISSION('Permission error, cannot list offers.') },
  {
    method: 'GET',
    path: '/offers/:id/',
    prepare: async () => ({ path: `/offers/${await freshOffer()}/` }),
    allowed: 'O A SE I',
    status: 200,
    integration: 'listed',
  },
  {
    method: 'POST',
    path: '/offers/',
    prepare: async () => {
      const tier = await t.connection.db.selectFrom('products').select('id').where('slug', '=', 'default-product').executeTakeFirstOrThrow();
      const name = unique('m').slice(0, 40);
      return { body: { offers: [{ name, code: name, type: 'percent', cadence: 'month', amount: 5, duration: 'once', tier: { id: tier.id } }] } };
    },
    allowed: 'O A I',
    status: 200,
    integration: 'listed',
    refused: NO_PERMISSION('Permission error, cannot save offer.'),
  },
  {
    method: 'PUT',
    path: '/offers/:id/',
    prepare: async () => ({ path: `/offers/${await freshOffer()}/`, body: { offers: [{ display_title: 'Edited' }] } }),
    allowed: 'O A I',
    status: 200,
    integration: 'listed',
    refused: NO_PERMISSION('Permission error, cannot edit offer.'),
  },

  {
    method: 'GET',
    path: '/members/',
    allowed: 'O A SE I',
    status: 200,
    integration: 'listed',
    refused: NO_PERMISSION('Permission error, cannot list members.'),
  },
  {
    method: 'GET',
    path: '/members/:id/',
    prepare: async () => ({ path: `/members/${await freshMember()}/` }),
    allowed: 'O A SE I',
    status: 200,
    integration: 'listed',
    refused: NO_PERMISSION('Permission error, cannot read member.'),
  },
  {
    method: 'GET',
    path: '/members/stats/count/',
    allowed: 'O A SE I',
    status: 200,
    integration: 'listed',
  },
  {
    method: 'POST',
    path: '/members/',
    prepare: async () => ({ body: { members: [{ email: `${unique('made-member')}@example.com` }] } }),
    allowed: 'O A SE I',
    status: 201,
    integration: 'listed',
    refused: NO_PERMISSION('Permission error, cannot save member.'),
  },
  {
    method: 'PUT',
    path: '/members/:id/',
    prepare: async () => ({ path: `/members/${await freshMember()}/`, body: { members: [{ name: 'Edited' }] } }),
    allowed: 'O A SE I',
    status: 200,
    integration: 'listed',
    refused: NO_PERMISSION('Permission error, cannot edit member.'),
  },
  {
    method: 'DELETE',
    path: '/members/:id/',
    prepare: async () => ({ path: `/members/${await freshMember()}/` }),
    allowed: 'O A SE I',
    status: 204,
    integration: 'listed',
    refused: NO_PERMISSION('Permission error, cannot delete member.'),
  },
  {
    method: 'GET',
    path: '/members/upload/',
    allowed: 'O A SE I',
    status: 200,
    integration: 'listed',
  },
  {
    method: 'POST',
    path: '/members/upload/',
    upload: async () => ({ membersfile: { name: 'members.csv', type: 'text/csv', data: `email\n${unique('csv-member')}@example.com\n` } }),
    allowed: 'O A SE I',
    status: 201,
    integration: 'listed',
  },
  {
    method: 'GET',
    path: '/members/upload/:id/',
    prepare: async () => ({ path: `/members/upload/${await freshImportJob()}/` }),
    allowed: 'O A SE I',
    status: 200,
    integration: 'listed',
  },
  {
    method: 'DELETE',
    path: '/members/?filter=',
    prepare: async () => ({ path: `/members/?filter=id:${await freshMember()}` }),
    allowed: 'O A SE I',
    status: 200,
    integration: 'listed',
  },
  {
    method: 'PUT',
    path: '/members/bulk/?filter=',
    prepare: async () => ({ path: `/members/bulk/?filter=id:${await freshMember()}`, body: { bulk: { action: 'unsubscribe' } } }),
    allowed: 'O A SE I',
    status: 200,
    integration: 'listed',
  },
  {
    method: 'GET',
    path: '/members/events/',
    allowed: 'O A SE I',
    status: 200,
    integration: 'listed',
  },

  { method: 'GET', path: '/roles/', allowed: ALL, status: 200, integration: 'listed' },
  { method: 'GET', path: '/roles/?permissions=assign', allowed: ALL, status: 200, integration: 'listed' },

  {
    method: 'GET',
    path: '/invites/',
    allowed: 'O A E SE',
    status: 200,
    integration: 'not listed',
    refused: NO_PERMISSION('Permission error, cannot list invites.'),
  },
  {
    method: 'GET',
    path: '/invites/:id/',
    prepare: async () => ({ path: `/invites/${await freshInvite()}/` }),
    allowed: 'O A E SE',
    status: 200,
    integration: 'not listed',
    refused: NO_PERMISSION('Permission error, cannot read invite.'),
  },
  {
    method: 'POST',
    path: '/invites/',
    prepare: async () => ({ body: { invites: [{ email: `${unique('new')}@example.com`, role_id: t.roleId('Author') }] } }),
    allowed: 'O A E SE I',
    status: 201,
    integration: 'listed',
    refused: NO_PERMISSION('Permission error, cannot save invite.'),
  },
  {
    method: 'DELETE',
    path: '/invites/:id/',
    prepare: async () => ({ path: `/invites/${await freshInvite()}/` }),
    allowed: 'O A E SE',
    status: 204,
    integration: 'not listed',
    refused: NO_PERMISSION('Permission error, cannot delete invite.'),
  },

  { method: 'GET', path: '/slugs/post/a-title/', allowed: ALL, status: 200, integration: 'not listed' },
  { method: 'GET', path: '/slugs/tag/a-name/1/', allowed: ALL, status: 200, integration: 'not listed' },

  { method: 'GET', path: '/emails/', allowed: 'O A E SE', status: 200, integration: 'not listed' },
  {
    method: 'GET',
    path: '/emails/:id/',
    prepare: async () => ({ path: `/emails/${await freshEmail()}/` }),
    allowed: ALL,
    status: 200,
    integration: 'not listed',
  },
  {
    method: 'PUT',
    path: '/emails/:id/retry/',
    prepare: async () => ({ path: `/emails/${await freshEmail()}/retry/`, body: {} }),
    allowed: 'O A E SE',
    status: 200,
    integration: 'not listed',
  },
  {
    method: 'GET',
    path: '/emails/:id/batches/',
    prepare: async () => ({ path: `/emails/${await freshEmail()}/batches/` }),
    allowed: 'O A E SE',
    status: 200,
    integration: 'not listed',
  },
  {
    method: 'GET',
    path: '/emails/:id/recipient-failures/',
    prepare: async () => ({ path: `/emails/${await freshEmail()}/recipient-failures/` }),
    allowed: 'O A E SE',
    status: 200,
    integration: 'not listed',
  },

  { method: 'GET', path: '/snippets/', allowed: ALL, status: 200, integration: 'not listed' },
  {
    method: 'GET',
    path: '/snippets/:id/',
    prepare: async () => ({ path: `/snippets/${await freshSnippet()}/` }),
    allowed: ALL,
    status: 200,
    integration: 'not listed',
  },
  {
    method: 'POST',
    path: '/snippets/',
    prepare: async () => ({ body: { snippets: [{ name: unique('snippet'), mobiledoc: '{}' }] } }),
    allowed: 'O A E SE I',
    status: 201,
    integration: 'not listed',
    refused: NO_PERMISSION('Permission error, cannot save snippet.'),
  },
  {
    method: 'PUT',
    path: '/snippets/:id/',
    prepare: async () => ({ path: `/snippets/${await freshSnippet()}/`, body: { snippets: [{ name: unique('snippet'), mobiledoc: '{}' }] } }),
    allowed: 'O A E SE I',
    status: 200,
    integration: 'not listed',
    refused: NO_PERMISSION('Permission error, cannot edit snippet.'),
  },
  {
    method: 'DELETE',
    path: '/snippets/:id/',
    prepare: async () => ({ path: `/snippets/${await freshSnippet()}/` }),
    allowed: 'O A E SE I',
    status: 204,
    integration: 'not listed',
    refused: NO_PERMISSION('Permission error, cannot delete snippet.'),
  },

  { method: 'GET', path: '/actions/', allowed: 'O A I', status: 200, integration: 'listed', refused: NO_PERMISSION('Permission error, cannot list actions.') },

  {
    method: 'GET',
    path: '/notifications/',
    allowed: 'O A E SE',
    status: 200,
    integration: 'not listed',
    refused: NO_PERMISSION('Permission error, cannot list notifications.'),
  },
  {
    method: 'POST',
    path: '/notifications/',
    prepare: async () => ({ body: { notifications: [{ message: unique('note'), custom: true }] } }),
    allowed: 'O A E SE',
    status: 201,
    integration: 'not listed',
    refused: NO_PERMISSION('Permission error, cannot save notification.'),
  },

  { method: 'GET', path: '/recommendations/', allowed: ALL, status: 200, integration: 'not listed' },
  { method: 'GET', path: '/incoming_recommendations/', allowed: ALL, status: 200, integration: 'not listed' },
  {
    method: 'POST',
    path: '/recommendations/',
    prepare: async () => ({ body: { recommendations: [{ title: 'Recommended', url: `https://${unique('site')}.example/` }] } }),
    allowed: 'O A',
    status: 201,
    integration: 'not listed',
    refused: NO_PERMISSION('Permission error, cannot save recommendation.'),
  },

  ...['posts', 'pages', 'tags', 'users'].map((kind): Row => ({
    method: 'GET',
    path: `/search-index/${kind}/`,
    allowed: ALL,
    status: 200,
    integration: 'listed',
  })),

  { method: 'GET', path: '/session/', allowed: ALL_STAFF, status: 200, integration: 'not listed' },
  { method: 'DELETE', path: '/session/', allowed: ALL_STAFF, status: 204, integration: 'not listed', after: async (caller) => caller.renew() },

  {
    method: 'PUT',
    path: '/authentication/setup/',
    body: { setup: [{ name: OWNER.name, email: OWNER.email, password: OWNER.password, blogTitle: OWNER.blogTitle }] },
    allowed: 'O',
    status: 200,
    integration: 'not listed',
    refused: NO_PERMISSION('You are not the site owner.'),
  },
  {
    method: 'POST',
    path: '/authentication/global_password_reset/',
    allowed: 'O A',
    status: 204,
    integration: 'not listed',
    refused: NO_PERMISSION('You do not have permission to resetAllPasswords authentication'),
    after: async (_caller, callers) => {
      // Everyone was locked out and logged out: unlock and sign everyone in again.
      await t.connection.db.updateTable('users').set({ status: 'active' }).execute();
      for (const caller of callers) await caller.renew();
    },
  },

  // Beyond Ghost: a user's own authenticator app, for people at a browser only.
  { method: 'GET', path: '/authenticator/', allowed: ALL_STAFF, status: 200, integration: 'not listed', exceptions: { staff: STAFF_TOKEN_BLOCKED } },

  // Uploads: any authenticated caller (no permission row, as Ghost). Their fixtures are made with the integration's
  // key: the Owner's session of `t` ends with the global password reset above.
  {
    method: 'POST',
    path: '/images/upload/',
    upload: async () => ({ file: { name: 'matrix.png', type: 'image/png', data: await image(8, 8, 'png') } }),
    allowed: ALL,
    status: 201,
    integration: 'listed',
  },
  {
    method: 'POST',
    path: '/media/upload/',
    upload: async () => ({ file: { name: 'matrix.mp3', type: 'audio/mpeg', data: mp3() } }),
    allowed: ALL,
    status: 201,
    integration: 'listed',
  },
  {
    method: 'PUT',
    path: '/media/thumbnail/upload/',
    prepare: async () => {
      const media = await t.admin.upload('/media/upload/', { file: { name: 'poster-target.mp3', type: 'audio/mpeg', data: mp3() } }, t.integration());
      return { body: { url: media.json().media[0].url } };
    },
    upload: async (prepared) => ({
      file: { name: 'poster.png', type: 'image/png', data: await image(8, 8, 'png') },
      url: (prepared.body as { url: string }).url,
    }),
    allowed: ALL,
    status: 200,
    integration: 'not listed',
  },
  {
    method: 'POST',
    path: '/files/upload/',
    upload: async () => ({ file: { name: 'matrix.pdf', type: 'application/pdf', data: '%PDF-1.4' } }),
    allowed: ALL,
    status: 201,
    integration: 'listed',
  },

  { method: 'GET', path: '/themes/', allowed: ALL, status: 200, integration: 'not listed' },
  { method: 'GET', path: '/themes/active/', allowed: 'O A E Au SE I', status: 200, integration: 'not listed' },
  {
    method: 'POST',
    path: '/themes/upload/',
    upload: async () => ({ file: { name: `${unique('matrix')}.zip`, type: 'application/zip', data: await themeZip('matrix') } }),
    allowed: 'O A I',
    status: 200,
    integration: 'listed',
  },
  { method: 'PUT', path: '/themes/quire/activate/', allowed: 'O A I', status: 200, integration: 'listed' },
  { method: 'GET', path: '/themes/quire/download/', allowed: 'O A I', status: 200, integration: 'not listed' },
  {
    method: 'DELETE',
    path: '/themes/:name/',
    prepare: async () => {
      const name = unique('doomed');
      await t.admin.upload('/themes/upload/', { file: { name: `${name}.zip`, type: 'application/zip', data: await themeZip(name) } }, t.integration());
      return { path: `/themes/${name}/` };
    },
    allowed: 'O A I',
    status: 204,
    integration: 'not listed',
  },
  // Custom theme settings: Owner and Administrator, on a theme with a setting to edit.
  { method: 'GET', path: '/custom_theme_settings/', allowed: 'O A', status: 200, integration: 'not listed' },
  {
    method: 'PUT',
    path: '/custom_theme_settings/',
    prepare: async () => {
      await activeThemeWithSettings();
      return {};
    },
    body: { custom_theme_settings: [{ key: 'matrix_colour', value: '#123456' }] },
    allowed: 'O A',
    status: 200,
    integration: 'not listed',
  },

  // The db endpoints: Owner and Administrator only (Ghost's Admin Integration role holds no db permission).
  { method: 'GET', path: '/db/', allowed: 'O A', status: 200, integration: 'listed' },
  {
    method: 'POST',
    path: '/db/',
    upload: async () => ({
      importfile: { name: 'empty.json', type: 'application/json', data: JSON.stringify({ db: [{ meta: { version: '5.130.6' }, data: {} }] }) },
    }),
    allowed: 'O A',
    status: 200,
    integration: 'listed',
  },
  {
    method: 'GET',
    path: '/db/import/:id/',
    prepare: async () => ({ path: `/db/import/${await freshDbImportJob()}/` }),
    allowed: 'O A',
    status: 200,
    integration: 'listed',
  },
  { method: 'POST', path: '/db/backup/', allowed: 'O A', status: 200, integration: 'listed' },
  // Last: it deletes every post and tag. Staff tokens may never call it.
  { method: 'DELETE', path: '/db/', allowed: 'O A', status: 204, integration: 'not listed', exceptions: { staff: STAFF_TOKEN_BLOCKED } },
];

let themeWithSettings: Promise<void> | null = null;
/** Once: a theme with a custom setting, uploaded and activated by the integration (the matrix signs staff out). */
function activeThemeWithSettings(): Promise<void> {
  themeWithSettings ??= (async () => {
    const pkg = JSON.stringify({ name: 'matrix-settings', version: '1.0.0', config: { custom: { matrix_colour: { type: 'color', default: '#000000' } } } });
    const data = await themeZip('matrix-settings', { 'package.json': pkg });
    expect(
      (await t.admin.upload('/themes/upload/', { file: { name: 'matrix-settings.zip', type: 'application/zip', data } }, t.integration())).statusCode,
    ).toBe(200);
    expect((await t.admin.put('/themes/matrix-settings/activate/', undefined, t.integration())).statusCode).toBe(200);
  })();
  return themeWithSettings;
}

function expected(row: Row, caller: Caller): Expect {
  const exception = row.exceptions?.[caller.kind];
  if (exception) return exception;
  if (caller.kind === 'integration' && row.integration === 'not listed') return NOT_IMPLEMENTED;
  const allowed = row.allowed.split(' ').includes(LETTERS[caller.role]!);
  return allowed ? { status: row.status } : (row.refused ?? NO_PERMISSION());
}

async function uploadAs(caller: Caller, method: Row['method'], path: string, parts: Record<string, string | FilePart>) {
  const { payload, headers } = await multipartBody(parts);
  return t.app.inject({ method, url: `${ADMIN}${path}`, headers: { ...caller.headers(), ...headers }, payload });
}

let callers: Caller[];
// The callers log in on their own: `t.owner`, which makes the fixtures, survives the matrix's own logouts.
beforeAll(async () => {
  callers = await makeCallers(t, t.keys.adminKey);
}, 120_000);

describe.each(ROWS.map((row) => [`${row.method} ${row.path}`, row] as const))('%s', (_name, row) => {
  it('answers each caller as Ghost does', async () => {
    const outcomes: string[] = [];
    const wanted: string[] = [];
    for (const caller of callers) {
      const prepared = row.prepare ? await row.prepare() : {};
      const res = row.upload
        ? await uploadAs(caller, row.method, prepared.path ?? row.path, await row.upload(prepared))
        : await call(t.app, caller, row.method, prepared.path ?? row.path, prepared.body ?? row.body);
      const want = expected(row, caller);
      const got: Expect = { status: res.statusCode };
      if (res.statusCode >= 400) {
        const error = ghostError(res);
        got.type = error.type as string;
        if (want.message !== undefined) got.message = error.message as string;
      }
      outcomes.push(`${caller.label}: ${JSON.stringify(got)}`);
      wanted.push(
        `${caller.label}: ${JSON.stringify({ status: want.status, ...(want.type ? { type: want.type } : {}), ...(want.message !== undefined && res.statusCode >= 400 ? { message: want.message } : {}) })}`,
      );
      if (res.statusCode < 400 && row.after) await row.after(caller, callers);
    }
    expect(outcomes).toEqual(wanted);
  }, 60_000);
});
