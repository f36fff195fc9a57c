import tseslint from 'typescript-eslint';

// typescript-eslint's recommended rules, plus the typed checks that catch what reviews miss: a promise
// nobody awaits (an error that vanishes, a write that outlives its transaction) and a switch over a union
// that forgets a member when the union grows.
export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'content/', 'test/fixtures/', '**/*.mjs', 'eslint.config.js', '.dependency-cruiser.cjs'] },
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
);
