// Cost of Ghost's content pipeline as Quire runs it: cold (first call in a fresh process, module loading and
// jsdom start-up included) and warm (median over many calls): `node bench/content-render.mjs`. Uses the
// Ghost-captured inputs in test/fixtures/content/.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'rolldown';
import { external, resolve } from '../rolldown.config.mjs';

const load = (f) => JSON.parse(readFileSync(new URL(`../test/fixtures/content/${f}`, import.meta.url), 'utf8'));
const lexical = load('lexical.json');
const site = lexical.meta.site;
const mobiledoc = load('mobiledoc.json').cases[0].input.mobiledoc;
const htmlSource = load('html-source.json').cases.find((c) => c.name === 'html-rich').input.html;
const kitchen = lexical.cases.find((c) => c.name === 'cards-basic').input.lexical;
const textOnly = lexical.cases.find((c) => c.name === 'text').input.lexical;
const long = lexical.cases.find((c) => c.name === 'long-reading').input.lexical;

const ms = (t) => `${t.toFixed(2)} ms`;
async function time(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}
async function median(fn, n = 200) {
  const times = [];
  for (let i = 0; i < n; i++) times.push(await time(fn));
  times.sort((a, b) => a - b);
  return times[Math.floor(n / 2)];
}

// The three modules measured, bundled from the sources as `npm run build` bundles the server (inside the
// project, so that the libraries left outside the bundle resolve from its node_modules).
const bundleDir = new URL('../node_modules/.cache/quire-bench/content-render/', import.meta.url).pathname;
const modules = ['render', 'text', 'ghost-url'];
await build({
  input: Object.fromEntries(modules.map((name) => [name, new URL(`../src/content/${name}.ts`, import.meta.url).pathname])),
  platform: 'node',
  external,
  resolve,
  logLevel: 'warn',
  output: { dir: bundleDir, format: 'esm' },
});
const importStart = performance.now();
const [render, text, url] = await Promise.all(modules.map((name) => import(path.join(bundleDir, `${name}.js`))));
const importMs = performance.now() - importStart;

const cold = {
  'renderLexical (first call)': await time(() => render.renderLexical(kitchen, { siteUrl: site })),
  'renderMobiledoc (first call)': await time(() => render.renderMobiledoc(mobiledoc, { siteUrl: site })),
  'htmlToLexical (first call)': await time(() => render.htmlToLexical(htmlSource)),
  'htmlToPlaintext (first call)': await time(() => text.htmlToPlaintext('<p>x</p>')),
  'lexicalToStorage (first call)': await time(() => url.lexicalToStorage(kitchen, site)),
};
const html = await render.renderLexical(long, { siteUrl: site });
const warm = {
  'renderLexical text-only (~400 words)': await median(() => render.renderLexical(textOnly, { siteUrl: site })),
  'renderLexical 19 cards': await median(() => render.renderLexical(kitchen, { siteUrl: site })),
  'renderLexical long (~3,000 words, 14 images)': await median(() => render.renderLexical(long, { siteUrl: site })),
  'renderMobiledoc 11 cards': await median(() => render.renderMobiledoc(mobiledoc, { siteUrl: site })),
  'htmlToLexical (rich html)': await median(() => render.htmlToLexical(htmlSource)),
  'htmlToPlaintext (long)': await median(() => text.htmlToPlaintext(html)),
  'readingTime (long)': await median(() => text.readingTime({ html, feature_image: null })),
  'lexicalToStorage 19 cards': await median(() => url.lexicalToStorage(kitchen, site)),
  'htmlToStorage (long)': await median(() => url.htmlToStorage(html, site)),
};

console.log(`node ${process.version}; import of the content modules: ${ms(importMs)} (libraries load lazily)`);
console.log('cold (fresh process, in this order):');
for (const [k, v] of Object.entries(cold)) console.log(`  ${k.padEnd(46)} ${ms(v)}`);
console.log('warm (median of 200):');
for (const [k, v] of Object.entries(warm)) console.log(`  ${k.padEnd(46)} ${ms(v)}`);
console.log(`RSS after: ${(process.memoryUsage().rss / 1048576).toFixed(0)} MB`);
