import type { FastifyInstance } from 'fastify';
import type { SnippetRow } from '../../db/schema.js';
import { parseFormats } from '../../browse/params.js';
import { browseRoute } from '../../http/browse-route.js';
import { assertIdParam } from '../../http/validate.js';
import { locationOf } from '../../http/location.js';
import { parseBody } from '../../http/parse-body.js';
import { errors } from '../../errors.js';
import { SNIPPETS_BROWSE } from './snippets.browse.js';
import { findSnippet } from './snippets.queries.js';
import { presentSnippet } from './snippets.present.js';
import { addSnippet, deleteSnippet, editSnippet } from './snippets.service.js';
import { SNIPPET_ADD, SNIPPET_EDIT, SNIPPET_FORMATS } from './snippets.schemas.js';

type Query = Record<string, unknown>;
type Params = { id: string };

const frame = (method: string) => ({ docName: 'snippets', method });
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

  app.post<{ Querystring: Query }>('/snippets/', { config: { frame: frame('add'), permission: 'snippet.add' } }, async (request, reply) => {
    const formats = formatsOf(request.query);
    const row = await addSnippet(request.ctx, parseBody(request, SNIPPET_ADD));
    reply.status(201).header('Location', locationOf(request, row.id));
    return { snippets: [presentSnippet(row, request.ctx.site.url, formats)] };
  });

  app.put<{ Params: Params; Querystring: Query }>('/snippets/:id/', { config: { frame: frame('edit'), permission: 'snippet.edit' } }, async (request) => {
    const formats = formatsOf(request.query);
    assertIdParam(request.params.id);
    const row = await editSnippet(request.ctx, request.params.id, parseBody(request, SNIPPET_EDIT));
    return { snippets: [presentSnippet(row, request.ctx.site.url, formats)] };
  });

  app.delete<{ Params: Params }>('/snippets/:id/', { config: { frame: frame('destroy'), permission: 'snippet.destroy' } }, async (request, reply) => {
    assertIdParam(request.params.id);
    await deleteSnippet(request.ctx, request.params.id);
    return reply.status(204).send();
  });
}
