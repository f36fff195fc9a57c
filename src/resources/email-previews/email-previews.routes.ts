import type { FastifyInstance } from 'fastify';
import { LIMITERS, hit } from '../../auth/brute.js';
import { framesOf } from '../../http/frame.js';
import { assertIdParam } from '../../http/validate.js';
import { previewEmail, sendTestEmail } from './email-previews.service.js';

type Query = Record<string, unknown>;
const frame = framesOf('email_previews');
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * Email previews (Admin API, staff only: Ghost answers integrations 501). Hand-written: the test send's body is
 * read loosely as Ghost reads it (`emails` plus optional `newsletter`/`memberSegment`, no envelope), and it is
 * limited per IP as Ghost's `previewEmailLimiter` does.
 */
export function emailPreviewsRoutes(app: FastifyInstance) {
  app.get<{ Params: { id: string }; Querystring: Query }>(
    '/email_previews/posts/:id/',
    { config: { frame: frame('read'), permission: 'email_preview.read' } },
    async (request) => {
      assertIdParam(request.params.id);
      const preview = await previewEmail(request.ctx, {
        postId: request.params.id,
        newsletter: text(request.query.newsletter),
        memberSegment: text(request.query.memberSegment),
      });
      return { email_previews: [preview] };
    },
  );

  app.post<{ Params: { id: string }; Querystring: Query; Body: Record<string, unknown> | undefined }>(
    '/email_previews/posts/:id/',
    { config: { frame: frame('sendTestEmail'), permission: 'email_preview.sendTestEmail' } },
    async (request, reply) => {
      // Counted once the caller is known (Ghost counts before authentication): a test send is a mail to anyone.
      await hit(request.ctx.autocommitDb, LIMITERS.emailPreview, request.ip, 'preview_email_blocked', request.ctx.clock.epochMs());
      assertIdParam(request.params.id);
      const body = request.body && typeof request.body === 'object' ? request.body : {};
      const emails = Array.isArray(body.emails) ? body.emails.filter((email): email is string => typeof email === 'string') : [];
      await sendTestEmail(request.ctx, {
        postId: request.params.id,
        emails,
        newsletter: text(body.newsletter),
        memberSegment: text(body.memberSegment),
      });
      return reply.status(204).send();
    },
  );
}
