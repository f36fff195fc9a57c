import tseslint from 'typescript-eslint';

// Data rules (ARCHITECTURE.md, "Data rules"). SQL is built in `*.queries.ts` files and migrations only, so a
// reader finds every statement of a resource in one place and the field maps stay the one column list.
const SQL_IN_QUERIES = {
  selector: 'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom)$/]',
  message: 'Build SQL in a *.queries.ts file (or a migration): see ARCHITECTURE.md, "Data rules".',
};
// `ctx.autocommitDb` is the pool with writes, for the writes that run outside `ctx.write` on purpose.
const AUTOCOMMIT = {
  selector: ':matches(MemberExpression[property.name="autocommitDb"], Property[key.name="autocommitDb"])',
  message: 'Write through ctx.write; ctx.autocommitDb is for the documented exceptions in AUTOCOMMIT_FILES only.',
};
// The documented writes outside `ctx.write` (see `Ctx.autocommitDb` in src/ctx.ts): login and reset
// counters (the Members API's sign-in limits too), sessions, one-time codes, device verification, job enqueueing,
// staff tokens, `last_seen`.
const AUTOCOMMIT_FILES = [
  'src/ctx.ts',
  'src/db/read-db.ts',
  'src/resources/authentication/authentication.reset.ts',
  'src/resources/authentication/authentication.routes.ts',
  'src/resources/authenticator/authenticator.routes.ts',
  'src/resources/authenticator/authenticator.service.ts',
  'src/resources/db/db.import-job.ts',
  'src/resources/db/db.routes.ts',
  'src/resources/email-previews/email-previews.routes.ts',
  'src/resources/members/members.import-job.ts',
  'src/resources/members-api/members-api.limits.ts',
  'src/resources/session/session.routes.ts',
  'src/resources/session/session.service.ts',
  'src/resources/users/users.tokens.ts',
];
// Where SQL is built outside `*.queries.ts` today. The layers below resources (auth, browse, db, events,
// filter, http, jobs, settings) are query modules of their own; the resource files are the ones not moved
// yet: move a file's statements into its resource's queries file and drop it from this list. Never add one.
const SQL_OUTSIDE_QUERIES = [
  'src/auth/**',
  'src/browse/**',
  'src/db/**',
  'src/events/**',
  'src/filter/**',
  'src/http/**',
  'src/jobs/**',
  'src/settings/**',
  'src/resources/authentication/authentication.global-reset.ts',
  'src/resources/authentication/authentication.invitation.ts',
  'src/resources/db/db.export.ts',
  'src/resources/db/db.import-members.ts',
  'src/resources/db/db.import-posts.ts',
  'src/resources/db/db.import-run.ts',
  'src/resources/db/db.import-staff.ts',
  'src/resources/db/db.import-tags.ts',
  'src/resources/db/db.import-tiers.ts',
  'src/resources/db/db.service.ts',
  'src/resources/integrations/integrations.service.ts',
  'src/resources/members/members.activity-feed.ts',
  'src/resources/members/members.activity.ts',
  'src/resources/members/members.bulk-edit.ts',
  'src/resources/members/members.bulk.ts',
  'src/resources/members/members.export.ts',
  'src/resources/members/members.import.ts',
  'src/resources/members/members.relations.ts',
  'src/resources/members/members.service.ts',
  'src/resources/notifications/notifications.service.ts',
  'src/resources/posts/posts.bulk.ts',
  'src/resources/posts/posts.relations.ts',
  'src/resources/posts/posts.tiers.ts',
  'src/resources/users/users.destroy.ts',
  'src/resources/users/users.tokens.ts',
];

// typescript-eslint's recommended rules, plus the typed checks that catch what reviews miss: a promise
// nobody awaits (an error that vanishes, a write that outlives its transaction) and a switch over a union
// that forgets a member when the union grows.
export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'vendor/', 'content/', 'test/fixtures/', '**/*.mjs', 'eslint.config.js', '.dependency-cruiser.cjs'] },
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { project: './tsconfig.check.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  // Where `any` is the honest type: migrations (Kysely's documented pattern, since a migration must keep
  // working whatever the schema becomes), the filter and browse engines (generic over every table), and
  // tests (untyped SDK clients, fixtures inserted into any table).
  {
    files: ['src/db/migrations/**', 'src/filter/**', 'src/browse/**', 'test/**', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-empty-object-type': 'off' },
  },
  { files: ['src/**/*.ts'], rules: { 'no-restricted-syntax': ['error', SQL_IN_QUERIES, AUTOCOMMIT] } },
  { files: SQL_OUTSIDE_QUERIES, rules: { 'no-restricted-syntax': ['error', AUTOCOMMIT] } },
  { files: AUTOCOMMIT_FILES, rules: { 'no-restricted-syntax': ['error', SQL_IN_QUERIES] } },
  { files: AUTOCOMMIT_FILES.filter((file) => SQL_OUTSIDE_QUERIES.includes(file)), rules: { 'no-restricted-syntax': 'off' } },
  // Queries files, migrations and tests (which set up and check rows directly) may build SQL.
  { files: ['src/**/*.queries.ts', 'src/db/migrations/**', '**/*.test.ts'], rules: { 'no-restricted-syntax': ['error', AUTOCOMMIT] } },
);
