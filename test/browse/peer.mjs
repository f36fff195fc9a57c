// Talking to the reference Ghost (shared/peer/ghost-peer.sh) from the recording script.
import { createHmac } from 'node:crypto';
import { execFileSync } from 'node:child_process';

export const PEER_SCRIPT = process.env.GHOST_PEER_SCRIPT ?? '/work/shared/peer/ghost-peer.sh';

/** Starts a fresh peer on `port`, sets it up and returns its keys and base URL. */
export function freshPeer(port) {
  execFileSync(PEER_SCRIPT, ['start', String(port)], { stdio: 'inherit' });
  const out = execFileSync(PEER_SCRIPT, ['bootstrap', String(port)]).toString();
  const key = (name) => new RegExp(`${name}=(\\S+)`).exec(out)[1];
  return { base: `http://127.0.0.1:${port}`, adminKey: key('ADMIN_KEY'), contentKey: key('CONTENT_KEY') };
}

export function adminToken(adminKey) {
  const [id, secret] = adminKey.split(':');
  const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const head = b64({ alg: 'HS256', typ: 'JWT', kid: id });
  const body = b64({ iat: now, exp: now + 300, aud: '/admin/' });
  const sig = createHmac('sha256', Buffer.from(secret, 'hex')).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${sig}`;
}

/** Owner session cookie (db import/delete are not open to integrations). */
export async function ownerCookie(base) {
  const res = await fetch(`${base}/ghost/api/admin/session/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ username: 'owner@example.com', password: 'Sup3r-secret-pass!' }),
  });
  if (res.status !== 201) throw new Error(`login ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

export async function importJson(base, cookie, json) {
  const headers = { cookie, origin: base };
  const del = await fetch(`${base}/ghost/api/admin/db/`, { method: 'DELETE', headers });
  if (del.status !== 204) throw new Error(`delete all ${del.status} ${await del.text()}`);
  const form = new FormData();
  form.append('importfile', new Blob([JSON.stringify(json)], { type: 'application/json' }), 'import.json');
  const res = await fetch(`${base}/ghost/api/admin/db/`, { method: 'POST', headers, body: form });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`import ${res.status} ${text}`);
  return JSON.parse(text);
}
