/**
 * One dependency direction (design.md §3), checked by `npm run check:deps` before every test run:
 *
 *   app.ts (with app-routes.ts), main.ts, worker.ts, cli*.ts  →  site/ (the public site, rendered from the resources' reads)  →  resources/<name>/
 *     →  http, auth, browse, filter, content, settings, mail, storage, events, jobs, ctx.ts
 *     →  db/, workers/  →  errors.ts
 *
 * No cycles between files or between folders. Tests (`*.test.ts`, `test/`) are exempt: they may reach
 * anything they exercise.
 */
const ENTRY = '^src/(app|app-routes|main|worker|cli[^/]*)[.]ts$';
const OURS = '^src/';

module.exports = {
  forbidden: [
    {
      name: 'no-file-cycles',
      severity: 'error',
      comment: 'A cycle between files makes load order matter and hides which module owns what.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment: 'Folders depend on each other one way only (resources included: posts → tags, never back).',
      scope: 'folder',
      from: { path: '^src/[^/]+/' },
      to: { circular: true, path: '^src/[^/]+/' },
    },
    {
      name: 'entries-are-not-imported',
      severity: 'error',
      comment: 'app.ts (with app-routes.ts), main.ts, worker.ts and cli*.ts assemble the service; only another entry point imports them.',
      from: { pathNot: ENTRY },
      to: { path: ENTRY },
    },
    {
      name: 'only-entries-import-routes',
      severity: 'error',
      comment: "Routes are mounted by app-routes.ts (and the CLI); a resource uses another resource's services, never its routes.",
      from: { pathNot: ENTRY },
      to: { path: '^src/resources/[^/]+/[^/]*routes[.]ts$' },
    },
    {
      name: 'lower-layers-do-not-import-resources',
      severity: 'error',
      comment:
        'http, auth, browse, filter, content, settings, mail, storage, events, jobs, ctx.ts and db serve resources; a resource passes a function in when they need its data.',
      from: { path: OURS, pathNot: ['^src/resources/', '^src/site/', ENTRY] },
      to: { path: '^src/resources/' },
    },
    {
      name: 'auth-is-below-http-mail-browse',
      severity: 'error',
      comment: 'Who is acting and what they may do know nothing of requests, mail or browsing.',
      from: { path: '^src/auth/' },
      to: { path: '^src/(http|mail|browse)/' },
    },
    {
      name: 'filter-imports-only-db-errors',
      severity: 'error',
      comment: 'The NQL compiler is generic: it knows columns and engines, nothing of browsing, requests or resources.',
      from: { path: '^src/filter/' },
      to: { path: OURS, pathNot: ['^src/(filter|db)/', '^src/errors[.]ts$'] },
    },
    {
      name: 'browse-imports-only-filter-db-errors',
      severity: 'error',
      comment: "The browse engine is driven by each resource's spec; it needs the filter compiler and the database only.",
      from: { path: '^src/browse/' },
      to: { path: OURS, pathNot: ['^src/(browse|filter|db)/', '^src/errors[.]ts$'] },
    },
    {
      name: 'ctx-imports-only-infrastructure',
      severity: 'error',
      comment:
        'The request/job context (and its process-wide base, built from the configuration) bundles infrastructure and the injectable clock; it sits above it and below http and resources.',
      from: { path: '^src/ctx(-base)?[.]ts$' },
      to: { path: OURS, pathNot: ['^src/(auth|db|mail|settings|storage|events)/', '^src/(errors|clock|config|ctx)[.]ts$'] },
    },
    {
      name: 'ctx-is-imported-by-http-and-resources',
      severity: 'error',
      comment: 'Infrastructure does not reach for the context: it takes what it needs as arguments.',
      from: { path: OURS, pathNot: ['^src/(http|resources|site)/', '^src/ctx(-base)?[.]ts$', ENTRY] },
      to: { path: '^src/ctx(-base)?[.]ts$' },
    },
    {
      name: 'db-imports-only-errors',
      severity: 'error',
      comment: 'The database layer (connections, row types, migrations, engine capabilities) is the bottom but for errors.',
      from: { path: '^src/db/' },
      to: { path: OURS, pathNot: ['^src/db/', '^src/errors[.]ts$'] },
    },
    {
      name: 'migrations-import-only-db-helpers',
      severity: 'error',
      comment: 'A migration must run the same forever: it carries frozen copies of its seed data and uses only column types and ids.',
      from: { path: '^src/db/migrations/' },
      to: { path: OURS, pathNot: ['^src/db/migrations/', '^src/db/(engine|ids)[.]ts$'] },
    },
    {
      name: 'workers-import-nothing-of-ours',
      severity: 'error',
      comment: "The worker pool runs tasks by name; what the tasks are is worker.ts's business, so the pool knows none of them.",
      from: { path: '^src/workers/' },
      to: { path: OURS, pathNot: '^src/workers/' },
    },
    {
      name: 'errors-import-nothing',
      severity: 'error',
      comment: 'Every layer throws these errors; they depend on nothing of ours.',
      from: { path: '^src/errors[.]ts$' },
      to: { path: OURS },
    },
    {
      name: 'config-imports-only-errors',
      severity: 'error',
      comment: 'The configuration is read once at start and handed down; it depends on nothing but errors.',
      from: { path: '^src/(config|config-types|config-values)[.]ts$' },
      to: { path: OURS, pathNot: '^src/(errors|config-types|config-values)[.]ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '[.]test[.]ts$|^test/' },
    // Type-only imports count: a cycle through types is still a cycle in the design.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
