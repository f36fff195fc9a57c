import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CtxBase } from '../../ctx.js';
import { ctxHook } from '../../http/request-ctx.js';
import { memberUuidKey, sameKey } from '../../auth/member-session.js';
import { readSettings } from '../../settings/settings.js';
import { editSelf } from '../members-api/members-api.member.js';
import { findMemberByUuid } from '../members-api/members-api.queries.js';
import { openKey } from './emails.links.js';
import { activeNewsletterUuidsOfMember, findEmail, findRecipient, recordOpen } from './emails.queries.js';

type Query = Record<string, string | string[] | undefined>;
const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** A transparent 1×1 GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

async function validationKey(request: FastifyRequest): Promise<string> {
  return (await readSettings(request.ctx.db, ['members_email_auth_secret'])).get('members_email_auth_secret') ?? '';
}

/**
 * Ghost's `/unsubscribe/` (its frontend controller): a GET sends the reader to the home page with
 * `action=unsubscribe`, where Portal shows the newsletter preferences; a POST is RFC 8058's one-click
 * unsubscribe that mailbox providers send from the `List-Unsubscribe` header: the key must be the uuid's
 * HMAC, and the member leaves the link's newsletter (all of them without one). 201 on success, a bare 400 otherwise.
 */
async function unsubscribeGet(request: FastifyRequest<{ Querystring: Query }>, reply: FastifyReply) {
  const uuid = one(request.query.uuid);
  if (!uuid) return reply.code(400).type('text/plain').send('Email address not found.');
  const target = new URL(request.ctx.site.url);
  target.searchParams.append('uuid', uuid);
  for (const name of ['newsletter', 'comments', 'key']) {
    const value = one(request.query[name]);
    if (value) target.searchParams.append(name, value);
  }
  target.searchParams.append('action', 'unsubscribe');
  return reply.code(302).header('Location', target.href).send();
}

async function unsubscribePost(request: FastifyRequest<{ Querystring: Query }>, reply: FastifyReply) {
  const uuid = one(request.query.uuid);
  const key = one(request.query.key);
  if (!uuid) return reply.code(400).type('text/plain').send('Email address not found.');
  if (!key || !sameKey(memberUuidKey(uuid, await validationKey(request)), key)) {
    request.log.warn({ uuid }, 'one-click unsubscribe refused: missing or invalid key');
    return reply.code(400).send();
  }
  try {
    const member = await findMemberByUuid(request.ctx.db, uuid);
    if (member) {
      if (one(request.query.comments)) {
        await editSelf(request.ctx, member, { enable_comment_notifications: false }, ['enable_comment_notifications']);
      } else {
        const newsletter = one(request.query.newsletter);
        const kept = newsletter ? (await activeNewsletterUuidsOfMember(request.ctx.db, member.id)).filter((n) => n.uuid !== newsletter) : [];
        await editSelf(request.ctx, member, { newsletters: kept.map((n) => ({ id: n.id })) }, ['newsletters']);
      }
    }
  } catch (err) {
    request.log.error({ err, uuid }, 'one-click unsubscribe failed');
    return reply.code(400).send();
  }
  return reply.code(201).send();
}

/** Beyond Ghost: the open pixel. The first load of a recipient's pixel records the open; every load gets the image. */
async function openPixel(request: FastifyRequest<{ Params: { recipientId: string; key: string } }>, reply: FastifyReply) {
  const { recipientId, key } = request.params;
  if (/^[0-9a-f]{24}$/.test(recipientId) && sameKey(openKey(recipientId, await validationKey(request)), key)) {
    const recipient = await findRecipient(request.ctx.db, recipientId);
    const email = recipient && (await findEmail(request.ctx.db, recipient.email_id));
    if (recipient && email?.track_opens && !recipient.opened_at) {
      await request.ctx.write((w) => recordOpen(w.db, recipientId, w.clock.now()));
    }
  }
  return reply.header('Cache-Control', 'no-store, private').type('image/gif').send(PIXEL);
}

export async function emailsPublicRoutes(app: FastifyInstance, base: CtxBase, siteUrl: string): Promise<void> {
  const sitePath = new URL(siteUrl).pathname;
  await app.register(
    async (scope) => {
      scope.addHook('onRequest', ctxHook(base));
      // Mailbox providers POST `List-Unsubscribe=One-Click` as a form; its body says nothing the URL does not.
      scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, _body, done) => done(null, undefined));
      scope.get('/unsubscribe/', unsubscribeGet);
      scope.post('/unsubscribe/', unsubscribePost);
      scope.get('/email/open/:recipientId/:key/', openPixel);
    },
    { prefix: sitePath.slice(0, -1) },
  );
}
