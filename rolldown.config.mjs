// `npm run build` bundles the server, the CLI and the worker threads' entry straight from the TypeScript sources
// into one file each (dist/main.mjs, dist/cli.mjs, dist/worker.mjs): loading ~1,000 small modules (Kysely alone
// has hundreds) was most of the start-up time; one file starts in about half the time. Types are checked by
// `npm run typecheck` (CI), not by the build: tsc's emit took ~15 CPU seconds of every fresh install.
//
// Native drivers and the @tryghost libraries (loaded through require, some only when first needed), sharp (native
// libvips), jsdom (reads its own files at run time), the AWS SDK (large, loaded only with STORAGE=s3 in mind) and the
// libraries that start their own threads from files of their package (piscina, pino-pretty) stay in node_modules.
// So do handlebars and js-yaml, required when a page is first rendered or YAML first parsed: a server answering only
// the APIs never holds them (issue 26), and express-hbs and our pages share one Handlebars (one SafeString class).
export const external = [
  /^node:/,
  'gscan',
  'better-sqlite3',
  'pg',
  'mysql2',
  'nodemailer',
  /^@tryghost\//,
  'sharp',
  'jsdom',
  /^@aws-sdk\//,
  'piscina',
  'pino-pretty',
  'handlebars',
  'js-yaml',
];

/**
 * fastify requires node:https and node:http2 as it loads, for servers made with its `https` or `http2` options,
 * which Quire never passes (TLS ends at the proxy in front of it). Each is required when first used instead: the
 * two and TLS under them were 2.6 MB of an idle server's memory (issue 26). A fastify whose lines differ fails
 * the build rather than bundling them unchanged.
 */
const lazyFastifyTransports = {
  name: 'lazy-fastify-transports',
  transform(code, id) {
    if (!/[\\/]fastify[\\/]lib[\\/]server\.js$/.test(id)) return null;
    let replaced = code;
    for (const name of ['https', 'http2']) {
      const line = `const ${name} = require('node:${name}')`;
      if (!replaced.includes(line)) throw new Error(`fastify/lib/server.js no longer has "${line}": see rolldown.config.mjs`);
      replaced = replaced.replace(line, `const ${name} = new Proxy({}, { get: (_, key) => require('node:${name}')[key] })`);
    }
    return { code: replaced, map: null };
  },
};

/** The sources import each other as `./x.js`, as Node resolves the built files; the bundler reads `./x.ts`. */
export const resolve = { extensionAlias: { '.js': ['.ts', '.js'] } };

// The server's dynamic imports (what only some sites or requests need: the theme engine, Redis, metrics) become
// chunks in dist/chunks/ that load on first use, so a server only answering the APIs never holds their source or
// their objects. The CLI and the worker entry stay one file each. Chunk names carry a hash of their content: a
// server still running while a new build is written keeps finding the chunks of its own build.
const split = { dir: 'dist', entryFileNames: '[name].mjs', chunkFileNames: 'chunks/[name]-[hash].mjs' };

export default ['main', 'cli', 'worker'].map((name) => ({
  input: `src/${name}.ts`,
  platform: 'node',
  external,
  resolve,
  plugins: [lazyFastifyTransports],
  // ASCII only and no doc comments: V8 keeps a module's source in memory for its whole life, two bytes a
  // character as soon as one character is outside Latin-1 (main.mjs: 11 MB of heap, now under 5 MB).
  output: {
    ...(name === 'main' ? split : { file: `dist/${name}.mjs`, codeSplitting: false }),
    format: 'esm',
    charset: 'ascii',
    comments: { legal: true, annotation: false, jsdoc: false },
  },
}));
