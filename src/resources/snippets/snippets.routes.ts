import type { FastifyInstance } from 'fastify';
import type { SnippetRow } from '../../db/schema.js';
import { parseFormats } from '../../browse/params.js';
import { browseRoute } from '../../http/browse-route.js';
import { writeRoutes } from '../../http/write-routes.js';
import { framesOf } from '../../http/frame.js';
import { assertIdParam } from '../../http/validate.js';
import { errors } from '../../errors.js';
import { SNIPPETS_BROWSE } from './snippets.browse.js';
import { findSnippet } from './snippets.queries.js';
import { presentSnippet } from './snippets.present.js';
import { addSnippet, deleteSnippet, editSnippet } from './snippets.service.js';
import { SNIPPET_ADD, SNIPPET_EDIT, SNIPPET_FORMATS } from './snippets.schemas.js';

type Query = Record<string, unknown>;
type Params = { id: string };

const frame = framesOf('snippets');
const formatsOf = (query: Query) => parseFormats(query.formats, SNIPPET_FORMATS);

export function snippetsRoutes(app: FastifyInstance) {
  browseRoute<SnippetRow>(app, {
    docName: 'snippets',
    api: 'admin',
    spec: SNIPPETS_BROWSE,
    permission: 'snippet.browse',
    params: { formats: SNIPPET_FORMATS },
    present: (ctx, rows, params) => rows.map((row) => presentSnippet(row, ctx.site.url, params.formats)),
  });

  app.get<{ Params: Params; Querystring: Query }>('/snippets/:id/', { config: { frame: frame('read'), permission: 'snippet.read' } }, async (request) => {
    const formats = formatsOf(request.query);
    assertIdParam(request.params.id);
    const row = await findSnippet(request.ctx.db, request.params.id);
    if (!row) throw errors.notFound({ message: 'Snippet not found.' });
    return { snippets: [presentSnippet(row, request.ctx.site.url, formats)] };
  });

  writeRoutes(app, {
    docName: 'snippets',
    add: {
      body: SNIPPET_ADD,
      permission: 'snippet.add',
      options: formatsOf,
      run: addSnippet,
      present: (ctx, row, formats) => [presentSnippet(row, ctx.site.url, formats)],
    },
    edit: {
      body: SNIPPET_EDIT,
      permission: 'snippet.edit',
      options: formatsOf,
      run: editSnippet,
      present: (ctx, row, formats) => [presentSnippet(row, ctx.site.url, formats)],
    },
    destroy: { permission: 'snippet.destroy', run: deleteSnippet },
  });
}
