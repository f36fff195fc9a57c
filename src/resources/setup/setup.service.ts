import type { ReadDb } from '../../db/read-db.js';
import type { Ctx } from '../../ctx.js';
import type { UserRow } from '../../db/schema.js';
import { errors } from '../../errors.js';
import { assertPasswordPolicy, hashPassword } from '../../auth/passwords.js';
import { generateSlug } from '../../content/slugs.js';
import type { SettingKey } from '../../settings/keys.js';
import { invalidateSettings, readSetting, writeSettings } from '../../settings/settings.js';
import { completeOwner, findOwner, findUserById, ownerUserId, userSlugTaken } from '../users/users.queries.js';
import { checkColumns } from '../../db/column-rules.js';
import { assertNameGiven, USER_RULES } from '../users/users.rules.js';
import type { SetupInput } from './setup.schemas.js';
import { renameDefaultTier } from '../tiers/tiers.service.js';
import { renameDefaultNewsletter } from '../newsletters/newsletters.service.js';

export async function isSetup(db: ReadDb): Promise<boolean> {
  // The Owner is found by role: after an ownership transfer it is no longer user `1`.
  const owner = await findOwner(db);
  return owner !== undefined && owner.status !== 'inactive';
}

export async function assertSetupState(db: ReadDb, expected: boolean): Promise<void> {
  if ((await isSetup(db)) === expected) return;
  throw errors.noPermission(expected ? 'Setup must be completed before making this request.' : 'Setup has already been completed.');
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * Fills in the owner and the site's title (first run, or the owner redoing it). Checks run in Ghost's
 * order: password policy, then the user record's columns.
 */
export async function applySetup(ctx: Ctx, input: SetupInput, firstRun: boolean): Promise<UserRow> {
  const { db } = ctx;
  const name = text(input.name);
  const email = text(input.email);
  const password = typeof input.password === 'string' ? input.password : '';
  const blogTitle = text(input.blogTitle);

  assertPasswordPolicy(password, { email, siteTitle: blogTitle || (await readSetting(db, 'title')) || undefined, siteUrl: ctx.site.url });
  assertNameGiven(name);
  checkColumns(USER_RULES, { name, email });

  const passwordHash = await hashPassword(password);
  const ownerId = await ownerUserId(db);
  const owner = await ctx.write(async (w) => {
    const { db: trx, clock } = w;
    const slug = await generateSlug(name, {
      kind: 'user',
      shortSlug: true,
      taken: (candidate) => userSlugTaken(trx, candidate, ownerId),
    });
    const changes = { name, slug, email, password: passwordHash, status: 'active' as const, updated_at: clock.now(), updated_by: ownerId };
    // Two first-run requests racing: only the one that still finds the owner inactive wins.
    if (!(await completeOwner(trx, ownerId, changes, firstRun))) throw errors.noPermission('Setup has already been completed.');
    if (blogTitle) {
      const settings: Partial<Record<SettingKey, string>> = { title: blogTitle, description: text(input.description) || 'Thoughts, stories and ideas.' };
      if (typeof input.accentColor === 'string' && input.accentColor) settings.accent_color = input.accentColor;
      await writeSettings(trx, settings, clock.now());
      // Ghost's first setup names the default paid tier and newsletter after the site.
      if (firstRun) {
        await renameDefaultTier(w, blogTitle);
        await renameDefaultNewsletter(w, blogTitle);
      }
    }
    return (await findUserById(trx, ownerId))!;
  });
  // The title was written inside the transaction: forget what was read before it committed.
  invalidateSettings();
  return owner;
}
