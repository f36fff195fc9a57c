// Newsletter sending: a post published with the default newsletter to N members (10,000 by default, and 2,000
// to see whether memory grows with the recipients), delivered to a local SMTP server in this process. Reports
// mails per second from the publish to the email's `submitted` status (the server pinned to one core), the
// server's resident memory at rest and its peak while it sends, and that each member got exactly one copy.
// Usage:
//   npm run build && node bench/newsletter-send.mjs            (SQLite in a temporary folder; 2,000 then 10,000)
//   node bench/newsletter-send.mjs 10000 postgres://postgres@127.0.0.1:5432/postgres
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { adminToken, cpuSecondsOf, keysFor, lexicalPost, ownerSession, rssSamples, startServer } from './posts-common.mjs';
import { freshDatabase } from './databases.mjs';

const counts = process.argv[2] ? [Number(process.argv[2])] : [2_000, 10_000];
const serverUrl = process.argv[3] ?? null;
const CPU = Number(process.env.BENCH_CPU ?? 0);
const PORT = Number(process.env.BENCH_PORT ?? 42150);

const received = new Map();
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, done) {
    stream.on('data', () => undefined);
    stream.on('end', () => {
      for (const rcpt of session.envelope.rcptTo) received.set(rcpt.address, (received.get(rcpt.address) ?? 0) + 1);
      done();
    });
  },
});
smtp.on('error', () => undefined);
await new Promise((resolve) => smtp.listen(0, '127.0.0.1', resolve));
const smtpUrl = `smtp://127.0.0.1:${smtp.server.address().port}`;

const results = [];
for (const count of counts) results.push(await run(count));
smtp.close();

const engine = serverUrl ? new URL(serverUrl).protocol.replace(/:$/, '') : 'sqlite';
const mb = (value) => `${value.toFixed(1)} MB`;
for (const r of results) {
  console.log(
    `${engine}: ${r.count} recipients in ${(r.ms / 1000).toFixed(1)} s = ${r.perSecond.toFixed(0)} mails/s on one (shared) core, ` +
      `${r.cpu.toFixed(1)} CPU s = ${(r.count / r.cpu).toFixed(0)} mails per CPU second; ` +
      `RSS ${mb(r.idle)} at rest, peak ${mb(r.peak)} while sending (+${mb(r.peak - r.idle)}); ` +
      `copies: ${r.copies}, addresses reached twice: ${r.twice}, polls repeated: ${r.resets}; load average ${r.load}`,
  );
}

async function run(count) {
  received.clear();
  const database = serverUrl ? await freshDatabase(serverUrl) : null;
  const contentDir = mkdtempSync(path.join(tmpdir(), 'quire-bench-newsletter-'));
  const quire = await startServer({
    cpu: CPU,
    dir: contentDir,
    env: { PORT: String(PORT), ...(database ? { DATABASE_URL: database.url } : {}), NEWSLETTER_SMTP_URL: smtpUrl, JOBS_POLL_MS: '100' },
  });
  try {
    const { adminKey } = await keysFor(quire.base);
    const api = `${quire.base}/ghost/api/admin`;
    const key = () => ({ authorization: `Ghost ${adminToken(adminKey)}`, 'content-type': 'application/json' });
    const cookie = await ownerSession(quire.base);
    const session = { cookie, origin: quire.base, 'content-type': 'application/json' };
    await importMembers(api, key, count);

    await new Promise((resolve) => setTimeout(resolve, 3000));
    const idle = Math.min(...(await rssSamples(quire, 10, 50)));
    const made = await (
      await fetch(`${api}/posts/`, { method: 'POST', headers: key(), body: JSON.stringify({ posts: [{ title: 'Bench issue', lexical: lexicalPost(800) }] }) })
    ).json();
    const post = made.posts[0];
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, quire.rssMb())), 20);
    const started = performance.now();
    const cpuBefore = cpuSecondsOf(quire.pid);
    const sent = await fetch(`${api}/posts/${post.id}/?newsletter=default-newsletter`, {
      method: 'PUT',
      headers: key(),
      body: JSON.stringify({ posts: [{ status: 'published', updated_at: post.updated_at }] }),
    });
    if (!sent.ok) throw new Error(`publish answered ${sent.status}: ${await sent.text()}`);
    const emailId = (await sent.json()).posts[0].email.id;
    let email;
    let resets = 0;
    for (;;) {
      if (!(quire.rssMb() > 0)) throw new Error('the server exited during the send');
      // A poll that loses its connection (a kept-alive socket closed as it was reused) is simply repeated.
      email = await fetch(`${api}/emails/${emailId}/`, { headers: session })
        .then(async (res) => (await res.json()).emails[0])
        .catch(() => (resets++, null));
      if (email && (email.status === 'submitted' || email.status === 'failed')) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const ms = performance.now() - started;
    const cpu = cpuSecondsOf(quire.pid) - cpuBefore;
    clearInterval(sampler);
    if (email.status !== 'submitted' || email.delivered_count !== count)
      throw new Error(`email ended ${email.status} with ${email.delivered_count}/${count} delivered`);
    const copies = [...received.values()].reduce((a, b) => a + b, 0);
    const twice = [...received.values()].filter((n) => n > 1).length;
    return { count, ms, cpu, resets, perSecond: (count / ms) * 1000, idle, peak, copies, twice, load: loadavg()[0].toFixed(1) };
  } finally {
    await quire.stop();
    await database?.drop();
    rmSync(contentDir, { recursive: true, force: true });
  }
}

/** Members by CSV import (a background job), each subscribed to the default newsletter. */
async function importMembers(api, key, count) {
  const lines = ['email,name'];
  for (let i = 0; i < count; i++) lines.push(`reader-${i}@example.com,Reader ${i}`);
  const form = new FormData();
  form.append('membersfile', new Blob([lines.join('\n')], { type: 'text/csv' }), 'members.csv');
  const { authorization } = key();
  const res = await fetch(`${api}/members/upload/`, { method: 'POST', headers: { authorization }, body: form });
  if (res.status === 201) return;
  if (res.status !== 202) throw new Error(`import answered ${res.status}: ${await res.text()}`);
  const job = res.headers.get('location');
  for (;;) {
    const state = (await (await fetch(job, { headers: { authorization: key().authorization } })).json()).jobs[0];
    if (state.status === 'failed') throw new Error(`import failed: ${state.error}`);
    if (state.status === 'done') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
