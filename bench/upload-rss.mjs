// Memory of a large upload: the server's resident memory at rest, then its peak while a 50 MB file streams in
// through POST /files/upload/ (the body is generated as it is sent, never held whole by the client either), and
// while the file is served back from /content/files/. Usage: npm run build && node bench/upload-rss.mjs [MB]
import { request } from 'node:http';
import { adminToken, keysFor, rssSamples, startServer } from './posts-common.mjs';

const megabytes = Number(process.argv[2] ?? 50);
const server = await startServer();
const { adminKey } = await keysFor(server.base);

// Let start-up garbage settle and the renderer thread warm up (two seconds after start, ~80 MB; on a busy
// machine it would otherwise land in the middle of the upload), then take the resting figure as the lowest of
// a few samples.
await new Promise((resolve) => setTimeout(resolve, 6000));
const idle = Math.min(...(await rssSamples(server, 10, 50)));

let peak = 0;
const sampler = setInterval(() => (peak = Math.max(peak, server.rssMb())), 10);
const boundary = `----quire-bench-${Date.now()}`;
const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
const chunk = Buffer.alloc(64 * 1024, 0x61);
const started = performance.now();
const url = await new Promise((resolve, reject) => {
  const req = request(`${server.base}/ghost/api/admin/files/upload/`, {
    method: 'POST',
    headers: {
      authorization: `Ghost ${adminToken(adminKey)}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': head.length + megabytes * 1024 * 1024 + tail.length,
    },
  });
  req.on('response', (res) => {
    let body = '';
    res.on('data', (part) => (body += part));
    res.on('end', () => (res.statusCode === 201 ? resolve(JSON.parse(body).files[0].url) : reject(new Error(`${res.statusCode} ${body}`))));
  });
  req.on('error', reject);
  (async () => {
    req.write(head);
    for (let sent = 0; sent < megabytes * 1024 * 1024; sent += chunk.length) {
      if (!req.write(chunk)) await new Promise((resolve) => req.once('drain', resolve));
    }
    req.end(tail);
  })();
});
const uploadMs = performance.now() - started;
const uploadPeak = peak;

peak = 0;
const served = await fetch(url);
let bytes = 0;
for await (const part of served.body) bytes += part.length;
clearInterval(sampler);
console.log(
  `${megabytes} MB upload: server RSS at rest ${idle.toFixed(1)} MB, peak while uploading ${uploadPeak.toFixed(1)} MB (+${(uploadPeak - idle).toFixed(1)} MB) in ${uploadMs.toFixed(0)} ms; ` +
    `serving it back (${(bytes / 1024 / 1024).toFixed(0)} MB): peak ${peak.toFixed(1)} MB (+${(peak - idle).toFixed(1)} MB)`,
);
await server.stop();
