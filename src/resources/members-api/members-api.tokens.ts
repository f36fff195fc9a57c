import { randomBytes } from 'node:crypto';
import type { Ctx } from '../../ctx.js';
import { objectId } from '../../db/ids.js';
import { OWNER_USER_ID } from '../../auth/roles.js';
import { countTokenUse, deleteTokensCreatedBefore, findTokenOrThrow, insertToken } from './members-api.queries.js';

/**
 * Magic-link tokens as Ghost's SingleUseTokenProvider keeps them, in the `tokens` table every instance shares:
 * valid 24 hours from creation; once used, usable again for 10 minutes (mail scanners open links before
 * people do), at most 7 uses in all.
 */
export const TOKEN_VALIDITY_MS = 24 * 60 * 60 * 1000;
export const TOKEN_VALIDITY_AFTER_USAGE_MS = 10 * 60 * 1000;
export const TOKEN_MAX_USAGE_COUNT = 7;

/** What a magic link carries (Ghost's token data), stored as JSON in the token's row. */
export interface MagicLinkData {
  email?: string;
  type?: string;
  name?: string;
  labels?: unknown;
  newsletters?: { id: string }[];
  attribution?: Attribution;
  reqIp?: string;
  oldEmail?: string;
}

export interface Attribution {
  id: string | null;
  type: 'url' | 'post' | 'page' | 'author' | 'tag' | null;
  url: string | null;
  referrer_source: string | null;
  referrer_medium: string | null;
  referrer_url: string | null;
}

/** 192 random bits, base64 made URL-safe: 32 characters, as Ghost's token model makes them. */
const newToken = () => randomBytes(24).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');

export async function createMagicToken(ctx: Ctx, data: MagicLinkData): Promise<string> {
  const token = newToken();
  const at = ctx.clock.now();
  await ctx.write(async (w) => {
    await insertToken(w.db, {
      id: objectId(),
      token,
      data: JSON.stringify(data),
      created_at: at,
      created_by: OWNER_USER_ID,
      updated_at: at,
      updated_by: OWNER_USER_ID,
      first_used_at: null,
      used_count: 0,
    });
  });
  return token;
}

/** Why a token was refused: Ghost's ValidationError messages. */
export class TokenRefused extends Error {}

/**
 * Counts one use of the token and returns its data, or throws TokenRefused (unknown, used up, expired).
 * The use is counted first, by one conditional UPDATE (a write lock from the start: on SQLite no read lock to
 * upgrade, on the servers the row lock queues concurrent uses), then checked; a refused use is rolled back.
 * Two instances opening the same link at once both count.
 */
export async function useMagicToken(ctx: Ctx, token: string): Promise<MagicLinkData> {
  const data = await ctx.write(async (w) => {
    const at = w.clock.now();
    if (!(await countTokenUse(w.db, token, at))) throw new TokenRefused('Invalid token provided');
    const row = await findTokenOrThrow(w.db, token);
    const usedBefore = row.used_count - 1;
    const now = w.clock.epochMs();
    const created = new Date(row.created_at).getTime();
    if (usedBefore >= TOKEN_MAX_USAGE_COUNT) throw new TokenRefused('Token expired');
    if (usedBefore > 0 && now - new Date(row.first_used_at ?? row.created_at).getTime() > TOKEN_VALIDITY_AFTER_USAGE_MS)
      throw new TokenRefused('Token expired');
    if (now - created > TOKEN_VALIDITY_MS) throw new TokenRefused('Token expired');
    return row.data;
  });
  try {
    return JSON.parse(data ?? '{}') as MagicLinkData;
  } catch {
    return {};
  }
}

/** Ghost's daily clean-up drops tokens older than their validity; called now and then when links are made. */
export async function pruneMagicTokens(ctx: Ctx): Promise<void> {
  const before = new Date(ctx.clock.epochMs() - TOKEN_VALIDITY_MS);
  await ctx.write(async (w) => {
    await deleteTokensCreatedBefore(w.db, before);
  });
}
