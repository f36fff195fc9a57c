import type { IntegrationRow } from '../../db/schema.js';
import type { Ctx } from '../../ctx.js';
import { errors } from '../../errors.js';
import { objectId, randomHex } from '../../db/ids.js';
import { generateSlug } from '../../content/slugs.js';
import { roleIdByName } from '../users/users.queries.js';
import { findListedIntegration } from './integrations.queries.js';
import { checkColumns } from '../../db/column-rules.js';
import { INTEGRATION_RULES } from './integrations.rules.js';
import { deleteWebhooksOf } from '../webhooks/webhooks.queries.js';
import type { IntegrationAddInput, IntegrationInput } from './integrations.schemas.js';

/** Admin keys sign tokens with 32 random bytes; content keys are 13 bytes, as Ghost makes them. */
export const newSecret = (type: 'admin' | 'content') => randomHex(type === 'admin' ? 32 : 13);

export async function addIntegration(ctx: Ctx, input: IntegrationAddInput): Promise<IntegrationRow> {
  const values = checkColumns(INTEGRATION_RULES, input);
  return ctx.write(async ({ db: trx, clock, actingUserId: actorId }) => {
    const at = clock.now();
    const slug = await generateSlug(values.name!, {
      kind: 'integration',
      taken: async (candidate) => !!(await trx.selectFrom('integrations').select('id').where('slug', '=', candidate).executeTakeFirst()),
    });
    const integration: IntegrationRow = {
      id: objectId(),
      type: 'custom',
      name: values.name!,
      slug,
      icon_image: values.icon_image ?? null,
      description: values.description ?? null,
      created_at: at,
      created_by: actorId,
      updated_at: at,
      updated_by: actorId,
    };
    await trx.insertInto('integrations').values(integration).execute();
    // One content key and one admin key (the admin key carries the Admin Integration role), as Ghost makes them.
    const adminRoleId = await roleIdByName(trx, 'Admin Integration');
    const key = (type: 'admin' | 'content', role_id: string | null) => ({
      id: objectId(),
      type,
      secret: newSecret(type),
      role_id,
      integration_id: integration.id,
      user_id: null,
      created_at: at,
      created_by: actorId,
      updated_at: at,
      updated_by: actorId,
      last_seen_at: null,
      last_seen_version: null,
    });
    await trx
      .insertInto('api_keys')
      .values([key('content', null), key('admin', adminRoleId)])
      .execute();
    return integration;
  });
}

export async function editIntegration(ctx: Ctx, id: string, input: IntegrationInput): Promise<IntegrationRow> {
  const values = checkColumns(INTEGRATION_RULES, input);
  return ctx.write(async ({ db, clock, actingUserId }) => {
    const existing = await findListedIntegration(db, id);
    if (!existing) throw errors.notFound('Integration not found.');
    const changed = Object.entries(values).some(([key, value]) => existing[key as keyof typeof values] !== value);
    if (!changed) return existing;
    const updated = { ...values, updated_at: clock.now(), updated_by: actingUserId };
    await db.updateTable('integrations').set(updated).where('id', '=', id).execute();
    return { ...existing, ...updated };
  });
}

/** New secret for one key of an integration; the old one stops working at once. */
export async function refreshApiKey(ctx: Ctx, integrationId: string, keyId: string): Promise<IntegrationRow> {
  return ctx.write(async ({ db, clock, actingUserId }) => {
    const integration = await findListedIntegration(db, integrationId);
    if (!integration) throw errors.notFound('Integration not found.');
    const key = await db.selectFrom('api_keys').select(['id', 'type']).where('id', '=', keyId).where('integration_id', '=', integrationId).executeTakeFirst();
    if (!key) throw errors.notFound('ApiKey not found.');
    await db
      .updateTable('api_keys')
      .set({ secret: newSecret(key.type), updated_at: clock.now(), updated_by: actingUserId })
      .where('id', '=', keyId)
      .execute();
    return integration;
  });
}

export async function deleteIntegration(ctx: Ctx, id: string): Promise<void> {
  await ctx.write(async ({ db: trx }) => {
    if (!(await findListedIntegration(trx, id))) throw errors.notFound();
    await trx.deleteFrom('api_keys').where('integration_id', '=', id).execute();
    // Its webhooks go with it (Ghost's cascade), and their delivery history with them.
    await deleteWebhooksOf(trx, id);
    await trx.deleteFrom('integrations').where('id', '=', id).execute();
  });
}
