// `npm run build` bundles the server, the CLI and the worker threads' entry straight from the TypeScript sources
// into one file each (dist/main.mjs, dist/cli.mjs, dist/worker.mjs): loading ~1,000 small modules (Kysely alone
// has hundreds) was most of the start-up time; one file starts in about half the time. Types are checked by
// `npm run typecheck` (CI), not by the build: tsc's emit took ~15 CPU seconds of every fresh install.
//
// Native drivers and the @tryghost libraries (loaded through require, some only when first needed), sharp (native
// libvips), jsdom (reads its own files at run time), the AWS SDK (large, loaded only with STORAGE=s3 in mind) and the
// libraries that start their own threads from files of their package (piscina, pino-pretty) stay in node_modules.
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
];

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
  // ASCII only and no doc comments: V8 keeps a module's source in memory for its whole life, two bytes a
  // character as soon as one character is outside Latin-1 (main.mjs: 11 MB of heap, now under 5 MB).
  output: {
    ...(name === 'main' ? split : { file: `dist/${name}.mjs`, codeSplitting: false }),
    format: 'esm',
    charset: 'ascii',
    comments: { legal: true, annotation: false, jsdoc: false },
  },
}));
