// `npm run build` bundles the compiled server and CLI (dist/src/*.js, from tsc) into one file each,
// dist/main.mjs and dist/cli.mjs, and the worker threads' entry into dist/worker.mjs: loading ~1,000 small modules
// (Kysely alone has hundreds) was most of the start-up time; one file starts in about half the time. Native drivers
// and the @tryghost libraries (loaded through require, some only when first needed), sharp (native libvips), jsdom
// (reads its own files at run time), the AWS SDK (large, loaded only with STORAGE=s3 in mind) and the libraries that
// start their own threads from files of their package (piscina, pino-pretty) stay in node_modules.
const external = [/^node:/, 'gscan', 'better-sqlite3', 'pg', 'mysql2', 'nodemailer', /^@tryghost\//, 'sharp', 'jsdom', /^@aws-sdk\//, 'piscina', 'pino-pretty'];

export default ['main', 'cli', 'worker'].map((name) => ({
  input: `dist/src/${name}.js`,
  platform: 'node',
  external,
  // ASCII only and no doc comments: V8 keeps a module's source in memory for its whole life, two bytes a
  // character as soon as one character is outside Latin-1 (main.mjs: 11 MB of heap, now under 5 MB).
  output: { file: `dist/${name}.mjs`, format: 'esm', codeSplitting: false, charset: 'ascii', comments: { legal: true, annotation: false, jsdoc: false } },
}));
