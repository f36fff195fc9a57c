/**
 * Time for a `?source=html` post of deeply nested html (issue 22: 8,000 nested <div>s, ~88 KB), and for a staff
 * sign-in and an ordinary save sent while it is in flight, against a built Quire (`--main`, default
 * dist/main.mjs) on SQLite. Run it against the build before and after a change to compare.
 *
 *   node bench/nested-html.mjs [--main dist/main.mjs] [--depth 8000] [--port 3102]
 */
import { parseArgs } from 'node:util';
import { OWNER, keysFor, ownerSession, startServer } from './posts-common.mjs';

const { values } = parseArgs({
  options: { main: { type: 'string', default: 'dist/main.mjs' }, depth: { type: 'string', default: '8000' }, port: { type: 'string', default: '3102' } },
});
const depth = Number(values.depth);
const server = await startServer({ main: values.main, env: { PORT: values.port } });
try {
  await keysFor(server.base);
  const cookie = await ownerSession(server.base);
  const headers = { 'content-type': 'application/json', origin: server.base, cookie };
  const post = async (title, html) => {
    const started = performance.now();
    const res = await fetch(`${server.base}/ghost/api/admin/posts/?source=html`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ posts: [{ title, html }] }),
    });
    await res.arrayBuffer();
    return { status: res.status, ms: Math.round(performance.now() - started) };
  };
  // A first ordinary save warms a worker thread (jsdom's start-up is not what is measured).
  await post('Warm', '<p>warm</p>');
  const html = '<div>'.repeat(depth) + 'deep' + '</div>'.repeat(depth);
  const deep = post('Deep', html);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const loginStarted = performance.now();
  const login = ownerSession(server.base).then(() => Math.round(performance.now() - loginStarted));
  const ordinary = post('Ordinary', '<p>Hello <strong>world</strong></p>');
  const [d, l, o] = await Promise.all([deep, login, ordinary]);
  console.log(JSON.stringify({ main: values.main, depth, htmlBytes: html.length, deep: d, loginMs: l, ordinarySave: o, owner: OWNER.email }));
} finally {
  await server.stop();
}
