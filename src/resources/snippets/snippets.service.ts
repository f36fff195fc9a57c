import type { Ctx } from '../../ctx.js';
import type { SnippetRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import { objectId } from '../../db/ids.js';
import { lexicalToStorage, mobiledocToStorage } from '../../content/ghost-url.js';
import { deleteSnippetRow, findSnippet, insertSnippet, snippetNameTaken, updateSnippet } from './snippets.queries.js';
import type { SnippetInput } from './snippets.schemas.js';

const alreadyExists = () => errors.validation({ message: 'Snippet already exists.' });

/** Links to the site are stored as `__GHOST_URL__/…`, as in posts. */
function contentOf(input: SnippetInput, siteUrl: string) {
  return {
    mobiledoc: mobiledocToStorage(input.mobiledoc, siteUrl),
    ...('lexical' in input ? { lexical: input.lexical ? lexicalToStorage(input.lexical, siteUrl) : null } : {}),
  };
}

export async function addSnippet(ctx: Ctx, input: SnippetInput): Promise<SnippetRow> {
  const content = contentOf(input, ctx.site.url);
  return ctx.write(async ({ db, clock, actingUserId }) => {
    if (await snippetNameTaken(db, input.name)) throw alreadyExists();
    const at = clock.now();
    const row: SnippetRow = {
      id: objectId(),
      name: input.name,
      lexical: null,
      ...content,
      created_at: at,
      created_by: actingUserId,
      updated_at: at,
      updated_by: actingUserId,
    };
    await insertSnippet(db, row);
    return row;
  });
}

export async function editSnippet(ctx: Ctx, id: string, input: SnippetInput): Promise<SnippetRow> {
  const content = contentOf(input, ctx.site.url);
  return ctx.write(async ({ db, clock, actingUserId }) => {
    const existing = await findSnippet(db, id);
    if (!existing) throw errors.notFound({ message: 'Snippet not found.' });
    if (input.name !== existing.name && (await snippetNameTaken(db, input.name, id))) throw alreadyExists();
    const update = { name: input.name, ...content, updated_at: clock.now(), updated_by: actingUserId };
    await updateSnippet(db, id, update);
    return { ...existing, ...update };
  });
}

export async function deleteSnippet(ctx: Ctx, id: string): Promise<void> {
  await ctx.write(async ({ db }) => {
    if (!(await findSnippet(db, id))) throw errors.notFound({ message: 'Snippet not found.' });
    await deleteSnippetRow(db, id);
  });
}
