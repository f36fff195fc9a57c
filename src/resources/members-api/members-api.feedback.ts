import type { FastifyInstance, FastifyRequest } from 'fastify';
import { announcementVisibility } from '../../settings/derived.js';
import type { MemberRow } from '../../db/schema.js';
import { objectId } from '../../db/ids.js';
import { errors } from '../../errors.js';
import { readSettings } from '../../settings/settings.js';
import { memberFromLinkOrSession } from './members-api.session.js';
import { findFeedback, findPostId, insertFeedback, updateFeedbackScore } from './members-api.queries.js';

type SessionOf = (request: FastifyRequest) => Promise<MemberRow | null>;

/**
 * `POST /feedback/` (a member rates a newsletter post, from the mail's links: session or `uuid`+`key`) and
 * `GET /announcement/` (the announcement bar for this visitor: visitors, free or paid members).
 */
export function feedbackRoutes(api: FastifyInstance, sessionOf: SessionOf) {
  api.post<{ Querystring: Record<string, unknown>; Body: { feedback?: unknown } | undefined }>('/feedback/', async (request, reply) => {
    const member = await memberFromLinkOrSession(request);
    const items = request.body?.feedback;
    const data = Array.isArray(items) && items[0] && typeof items[0] === 'object' ? (items[0] as { post_id?: unknown; score?: unknown }) : null;
    const invalid = (context: string) => errors.validation({ message: 'Validation error, cannot save feedback.', context });
    if (!data || data.post_id === undefined) throw invalid('Validation (FieldIsRequired) failed for ["post_id"]');
    if (data.score === undefined) throw invalid('Validation (FieldIsRequired) failed for ["score"]');
    const score = data.score;
    if (score !== 0 && score !== 1) throw invalid('Invalid feedback score. Only 1 or 0 is currently allowed.');
    const ctx = request.ctx;
    const post = typeof data.post_id === 'string' ? await findPostId(ctx.db, data.post_id) : undefined;
    if (!post) throw errors.notFound({ message: 'Resource not found error, cannot save feedback.', context: 'Post not found.' });
    const saved = await ctx.write(async (w) => {
      const existing = await findFeedback(w.db, post.id, member.id);
      if (existing) {
        if (existing.score !== score) await updateFeedbackScore(w.db, existing.id, score, w.clock.now());
        return { id: existing.id, score };
      }
      const id = objectId();
      const at = w.clock.now();
      await insertFeedback(w.db, { id, score, member_id: member.id, post_id: post.id, created_at: at, updated_at: at });
      return { id, score };
    });
    return reply.status(201).send({ feedback: [{ id: saved.id, score: saved.score, memberId: member.id, postId: post.id }] });
  });

  api.get('/announcement/', async (request) => {
    const member = await sessionOf(request);
    const s = await readSettings(request.ctx.db, ['announcement_content', 'announcement_visibility', 'announcement_background']);
    const content = s.get('announcement_content');
    const shown = announcementVisibility(s.get('announcement_visibility'));
    const visible =
      Boolean(content) &&
      ((shown.includes('visitors') && !member) ||
        (shown.includes('free_members') && member?.status === 'free') ||
        (shown.includes('paid_members') && member !== null && member.status !== 'free'));
    // Ghost's serializer wraps the missing announcement as one empty object.
    return { announcement: [visible ? { announcement: content, announcement_background: s.get('announcement_background') } : {}] };
  });
}
