import { createRequire } from 'node:module';

/**
 * Runs on a worker thread (src/worker.ts exports it): Ghost's own theme checker, gscan 4.49.7 — the version
 * Ghost 5.130.6 ships — over a theme's unpacked folder, with the options Ghost passes (rules of Ghost 5, no
 * labs flag that gscan reads). Reading and linting a theme's templates costs 0.1–1 s of CPU, which the
 * request's event loop should not carry.
 */
const require = createRequire(import.meta.url);

interface GscanResult {
  name?: string;
  version?: string;
  checkedVersion?: string;
  customSettings?: Record<string, unknown>;
  results: { error: unknown[]; warning: unknown[]; hasFatalErrors: boolean };
}

interface Gscan {
  check(dir: string, options: Record<string, unknown>): Promise<GscanResult>;
  format(theme: GscanResult, options: Record<string, unknown>): GscanResult;
}

/** What the API shows of a check, as plain data: JSON's view of gscan's findings (a rule's RegExp shows as `{}`, as in Ghost's answers). */
export interface GscanFindings {
  fatal: boolean;
  errors: unknown[];
  warnings: unknown[];
  /** The theme's package.json `name` and `version`, when it has them (Ghost's ThemeValidationError details). */
  name: string | null;
  version: string | null;
  checkedVersion: string;
  /** `config.custom` of the theme's package.json (`{}` without one). */
  customSettings: Record<string, unknown>;
}

export async function checkTheme({ dir }: { dir: string }): Promise<GscanFindings> {
  const gscan = require('gscan') as Gscan;
  const checked = gscan.format(await gscan.check(dir, { checkVersion: 'v5', labs: {} }), { onlyFatalErrors: false, checkVersion: 'v5' });
  const plain = JSON.parse(
    JSON.stringify({ errors: checked.results.error, warnings: checked.results.warning, customSettings: checked.customSettings ?? {} }),
  ) as Pick<GscanFindings, 'errors' | 'warnings' | 'customSettings'>;
  return {
    fatal: checked.results.hasFatalErrors,
    ...plain,
    name: typeof checked.name === 'string' ? checked.name : null,
    version: typeof checked.version === 'string' ? checked.version : null,
    checkedVersion: checked.checkedVersion ?? '5.x',
  };
}
