import { createReadStream } from 'node:fs';
import { framesOf } from '../../http/frame.js';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { importJobAnswer } from '../../http/job-state.js';
import { locationOf } from '../../http/location.js';
import { beforeController, checkUploadedFile, controllerStarts, withUpload, type UploadKind } from '../../http/upload.js';
import { exportMembers } from './members.export.js';
import { performImport, prepareImport, type ImportOptions } from './members.import.js';
import { MEMBERS_IMPORT_JOB, queueImport } from './members.import-job.js';

/** Ghost's upload checks for `membersfile` (`config.uploads.members`). */
const MEMBERS_UPLOAD: UploadKind = {
  extensions: ['.csv'],
  contentTypes: ['text/csv', 'application/csv', 'application/octet-stream', 'application/vnd.ms-excel'],
  missing: 'Please select a members CSV file.',
  invalid: 'Please select a valid CSV file.',
};

const frame = framesOf('members');
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/**
 * The form fields Ghost's admin sends with the file: `labels` (repeated, or `labels[…]`) and `mapping[<CSV
 * header>]=<field>`. Without a mapping Ghost's default one applies.
 */
function importOptions(entries: readonly [string, string][]): ImportOptions {
  const labels: string[] = [];
  const mapping: Record<string, string> = {};
  let mapped = false;
  for (const [name, value] of entries) {
    if (name === 'labels' || /^labels\[[^\]]*\]$/.test(name)) {
      if (value !== '') labels.push(value);
      continue;
    }
    const header = /^mapping\[(.*)\]$/.exec(name)?.[1];
    if (header !== undefined) {
      mapping[header] = value;
      mapped = true;
    }
  }
  return { labels, mapping: mapped ? mapping : null };
}

export interface MembersUploadOptions {
  /** Files of more rows than this are imported by a background job (`MEMBERS_IMPORT_INLINE_ROWS`, Ghost's 500). */
  inlineRows: number;
}

/** `GET`/`POST /members/upload/` (Ghost's CSV export and import) and the progress of a background import. */
export function membersUploadRoutes(app: FastifyInstance, options: MembersUploadOptions) {
  app.get<{ Querystring: Record<string, unknown> }>(
    '/members/upload/',
    { config: { frame: frame('exportCSV'), permission: 'member.browse' } },
    async (request, reply) => {
      const chunks = exportMembers(request.ctx, { filter: text(request.query.filter), search: text(request.query.search) });
      const day = new Date(request.ctx.clock.epochMs()).toJSON().slice(0, 10);
      reply.header('Content-Type', 'text/csv; charset=utf-8').header('Content-Disposition', `attachment; filename="members.${day}.csv"`);
      return reply.send(Readable.from(chunks));
    },
  );

  app.post('/members/upload/', { config: { frame: frame('importCSV'), permission: 'member.add' } }, async (request, reply) => {
    beforeController(request);
    return withUpload(request, ['membersfile'], async ({ files, entries }) => {
      const file = checkUploadedFile(MEMBERS_UPLOAD, files.membersfile);
      controllerStarts(request);
      const { ctx } = request;
      const prepared = await prepareImport(ctx, createReadStream(file.path), importOptions(entries));
      // Ghost imports Stripe customers in the background whatever the size (here they are refused, row by row).
      if (prepared.rows <= options.inlineRows && !prepared.hasStripeData) {
        const meta = await performImport(ctx, prepared.csv, { importLabel: prepared.importLabel, originalImportSize: prepared.rows });
        reply.status(201);
        return { meta };
      }
      const job = await queueImport(ctx, prepared);
      // Where the progress and the result can be read (Ghost e-mails a report instead; its answer is only `meta`).
      reply.status(202).header('Location', locationOf(request, job));
      return { meta: { originalImportSize: prepared.rows } };
    });
  });

  app.get<{ Params: { id: string } }>('/members/upload/:id/', { config: { frame: frame('importStatus'), permission: 'member.add' } }, async (request) =>
    importJobAnswer(request.ctx, request.params.id, MEMBERS_IMPORT_JOB),
  );
}
