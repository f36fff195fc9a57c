// Records the browse fixtures from the reference Ghost 5.130.6:
//   node test/browse/record.mjs [port]      (default 2374; restarts that peer from scratch)
// It imports dataset.mjs into a fresh peer, snapshots the stored rows into test/fixtures/browse/seed.json,
// runs every case of cases.mjs and writes Ghost's answers to test/fixtures/browse/cases.json.
import { writeFileSync } from 'node:fs';
import { dataset } from './dataset.mjs';
import { cases } from './cases.mjs';
import { project } from './projection.mjs';
import { adminToken, freshPeer, importJson, ownerCookie } from './peer.mjs';
import { snapshotPeer } from './snapshot.mjs';

const port = Number(process.argv[2] ?? 2374);
const peer = freshPeer(port);
await importJson(peer.base, await ownerCookie(peer.base), dataset);
// Ghost answers the import before its SQLite writes are all visible to another connection: wait for them.
let seed = snapshotPeer(port);
for (let tries = 0; seed.posts.length < dataset.db[0].data.posts.length && tries < 50; tries++) {
  await new Promise((resolve) => setTimeout(resolve, 200));
  seed = snapshotPeer(port);
}
if (seed.posts.length < dataset.db[0].data.posts.length) throw new Error('the import did not show up in the peer database');
writeFileSync(new URL('../fixtures/browse/seed.json', import.meta.url), `${JSON.stringify(seed, null, 1)}\n`);

const siteUrl = `${peer.base}/`;
const recorded = [];
for (const kase of cases) {
  const sep = kase.q ? '&' : '';
  const url =
    kase.api === 'content'
      ? `${peer.base}/ghost/api/content/${kase.resource}/?key=${peer.contentKey}${sep}${kase.q}`
      : `${peer.base}/ghost/api/admin/${kase.resource}/${kase.q ? `?${kase.q}` : ''}`;
  const headers = kase.api === 'admin' ? { authorization: `Ghost ${adminToken(peer.adminKey)}` } : {};
  const res = await fetch(url, { headers });
  const body = await res.json();
  recorded.push({ name: kase.name, api: kase.api, resource: kase.resource, q: kase.q, ghost: project(kase, res.status, body, siteUrl) });
}
writeFileSync(new URL('../fixtures/browse/cases.json', import.meta.url), `${JSON.stringify(recorded, null, 1)}\n`);
const statuses = recorded.reduce((acc, r) => ({ ...acc, [r.ghost.status]: (acc[r.ghost.status] ?? 0) + 1 }), {});
console.log(`recorded ${recorded.length} cases`, statuses);
