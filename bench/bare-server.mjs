// A bare Node HTTP server sending recorded answers, byte for byte: the ceiling a response cache is measured
// against (design.md §6: warm reads at ≥ 50 % of it). Run by compare.mjs as a child process:
//   node bench/bare-server.mjs PORT ANSWERS.json    (ANSWERS: {"<path and query>": {"type": "…", "body": "<base64>"}})
import { readFileSync } from 'node:fs';
import http from 'node:http';

const [port, file] = process.argv.slice(2);
const answers = new Map(
  Object.entries(JSON.parse(readFileSync(file, 'utf8'))).map(([url, { type, body }]) => [url, { type, body: Buffer.from(body, 'base64') }]),
);
http
  .createServer((req, res) => {
    const answer = answers.get(req.url);
    if (!answer) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': answer.type, 'content-length': answer.body.length }).end(answer.body);
  })
  .listen(Number(port), '127.0.0.1', () => process.send?.('listening'));
