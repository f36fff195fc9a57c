import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/connect.js';
import type { ReadDb } from '../db/read-db.js';
import type { SessionRow } from '../db/schema.js';
import { objectId } from '../db/ids.js';

export const SESSION_COOKIE = 'service-admin-api-session';
/** Ghost keeps admin sessions for six months. */
export const SESSION_LIFETIME_MS = 6 * 30 * 24 * 60 * 60 * 1000;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

export interface NewSession {
  userId: string;
  origin: string;
  userAgent: string | null;
  ip: string | null;
  verified: boolean;
}

/** Stores a session created `at` and returns the secret token for the cookie; only its hash is kept. */
export async function createSession(db: Db, input: NewSession, at: Date): Promise<{ token: string; session: SessionRow }> {
  const token = randomBytes(32).toString('base64url');
  const session: SessionRow = {
    id: objectId(),
    session_hash: hashOf(token),
    user_id: input.userId,
    origin: input.origin,
    user_agent: input.userAgent,
    ip: input.ip,
    verified: input.verified,
    verified_user_id: input.verified ? input.userId : null,
    expires_at: new Date(at.getTime() + SESSION_LIFETIME_MS),
    created_at: at,
    updated_at: at,
  };
  await db.insertInto('sessions').values(session).execute();
  return { token, session };
}

/** The session of a cookie's token, unless it has expired by `at`. */
export async function findSession(db: ReadDb, token: string, at: Date): Promise<SessionRow | undefined> {
  const session = await db.selectFrom('sessions').selectAll().where('session_hash', '=', hashOf(token)).executeTakeFirst();
  if (!session || session.expires_at.getTime() <= at.getTime()) return undefined;
  return session;
}

/**
 * Logging out keeps the row (and cookie) but detaches the user, as Ghost does; the device stays known
 * unless the site requires a code on every login (`require_email_mfa`).
 */
export async function detachUser(db: Db, sessionId: string, at: Date, forgetDevice = false): Promise<void> {
  const changes = forgetDevice ? { user_id: null, verified: false, verified_user_id: null } : { user_id: null };
  await db
    .updateTable('sessions')
    .set({ ...changes, updated_at: at })
    .where('id', '=', sessionId)
    .execute();
}

/** The session's device proved itself for `userId` (a correct code). */
export async function markVerified(db: Db, sessionId: string, userId: string, at: Date): Promise<void> {
  await db.updateTable('sessions').set({ verified: true, verified_user_id: userId, updated_at: at }).where('id', '=', sessionId).execute();
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

export async function deleteUserSessions(db: Db, userId: string, exceptSessionId?: string): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptSessionId) query = query.where('id', '!=', exceptSessionId);
  await query.execute();
}
