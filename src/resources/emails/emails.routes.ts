import type { FastifyInstance } from 'fastify';
import type { EmailBatchRow, EmailRecipientFailureRow, EmailRow } from '../../db/schema.js';
import { browseRoute } from '../../http/browse-route.js';
import { readRoutes } from '../../http/read-routes.js';
import { framesOf } from '../../http/frame.js';
import { assertIdParam } from '../../http/validate.js';
import { browseRows } from '../../browse/browse.js';
import { parseBrowseParams, type BrowseParamRules } from '../../browse/params.js';
import { projectList } from '../../browse/projection.js';
import type { BrowseSpec } from '../../browse/browse.js';
import { EMAILS_BROWSE, EMAIL_BATCHES_BROWSE, EMAIL_FAILURES_BROWSE } from './emails.browse.js';
import { findEmail, membersByIds, recipientCountsOfBatches, recipientsByIds } from './emails.queries.js';
import { presentBatch, presentEmailRow, presentFailure } from './emails.present.js';
import { retryEmail } from './emails.service.js';

type Query = Record<string, unknown>;
type Params = { id: string };

const frame = framesOf('emails');

/** Ghost's nested browses run the list's filter inside `email_id:'<id>'` (an unknown email: an empty list, not a 404). */
function nestedBrowse<Row>(
  app: FastifyInstance,
  path: string,
  method: 'browseBatches' | 'browseFailures',
  key: string,
  spec: BrowseSpec,
  rules: BrowseParamRules,
  present: (request: { ctx: import('../../ctx.js').Ctx }, rows: Row[], include: string[]) => Promise<Record<string, unknown>[]>,
) {
  app.get<{ Params: Params; Querystring: Query }>(path, { config: { frame: frame(method), permission: 'email.browse' } }, async (request) => {
    const params = parseBrowseParams(request.query, rules);
    // Ghost does not check the id here: one that is not an email's lists nothing (and never reaches the filter).
    const id = /^[a-f\d]{24}$/.test(request.params.id) ? request.params.id : '000000000000000000000000';
    const scoped = `email_id:'${id}'`;
    const filter = params.filter ? `${scoped}+(${params.filter})` : scoped;
    const { rows, meta } = await browseRows<Row>(request.ctx.db, request.ctx.engine, spec, 'admin', { ...params, filter });
    return { [key]: projectList(await present(request, rows, params.include), params), meta };
  });
}

export function emailsRoutes(app: FastifyInstance) {
  browseRoute<EmailRow>(app, {
    docName: 'emails',
    api: 'admin',
    spec: EMAILS_BROWSE,
    permission: 'email.browse',
    present: (_ctx, rows) => rows.map((row) => presentEmailRow(row)),
  });

  readRoutes(app, {
    docName: 'emails',
    keys: ['id'],
    permission: 'email.read',
    notFound: 'Email not found.',
    read: async (ctx, key) => {
      const row = await findEmail(ctx.db, key.id);
      return row && presentEmailRow(row);
    },
  });

  app.put<{ Params: Params }>('/emails/:id/retry/', { config: { frame: frame('retry'), permission: 'email.retry' } }, async (request) => {
    assertIdParam(request.params.id);
    return { emails: [presentEmailRow(await retryEmail(request.ctx, request.params.id))] };
  });

  nestedBrowse<EmailBatchRow>(
    app,
    '/emails/:id/batches/',
    'browseBatches',
    'batches',
    EMAIL_BATCHES_BROWSE,
    { include: ['count.recipients'] },
    async (request, rows, include) => {
      if (!include.includes('count.recipients')) return rows.map((row) => presentBatch(row));
      const counts = await recipientCountsOfBatches(
        request.ctx.db,
        rows.map((row) => row.id),
      );
      return rows.map((row) => presentBatch(row, counts.get(row.id) ?? 0));
    },
  );

  nestedBrowse<EmailRecipientFailureRow>(
    app,
    '/emails/:id/recipient-failures/',
    'browseFailures',
    'failures',
    EMAIL_FAILURES_BROWSE,
    { include: ['member', 'email_recipient'] },
    async (request, rows, include) => {
      const members = include.includes('member')
        ? await membersByIds(
            request.ctx.db,
            rows.map((r) => r.member_id).filter((id): id is string => !!id),
          )
        : new Map();
      const recipients = include.includes('email_recipient')
        ? await recipientsByIds(
            request.ctx.db,
            rows.map((r) => r.email_recipient_id),
          )
        : new Map();
      return rows.map((row) => presentFailure(row, row.member_id ? members.get(row.member_id) : undefined, recipients.get(row.email_recipient_id)));
    },
  );
}
