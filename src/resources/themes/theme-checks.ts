import { errors } from '../../errors.js';
import { runInWorker, WorkerDeadlineError } from '../../workers/pool.js';
import type { GscanFindings } from './gscan.task.js';

/**
 * What Ghost's theme checker (gscan 4.49.7) found in a theme: `errors` and `warnings` exactly as Ghost puts
 * them on theme objects and in a ThemeValidationError, `fatal` when an error refuses upload and activation.
 */
export type ThemeCheck = GscanFindings;

/** A check that runs longer than this (a theme of thousands of templates) fails rather than holding a thread. */
const CHECK_TIMEOUT_MS = 60_000;

/**
 * Checks an unpacked theme folder with gscan on the worker pool. Warnings are dropped, as Ghost drops them
 * in production ("warnings are meant for developers only"): the answers are the ones a Ghost site gives.
 */
export async function checkThemeFolder(name: string, dir: string): Promise<ThemeCheck> {
  let findings: GscanFindings;
  try {
    findings = await runInWorker<GscanFindings>('checkTheme', { dir }, { timeoutMs: CHECK_TIMEOUT_MS });
  } catch (err) {
    if (err instanceof WorkerDeadlineError) throw err;
    // gscan's own refusal of a theme it cannot read at all (Ghost answers it the same way).
    throw errors.validation({
      message: 'Failed theme files check',
      help: 'Your theme file structure is corrupted or contains errors',
      details: err instanceof Error ? err.message : String(err),
      context: name,
    });
  }
  return { ...findings, warnings: [] };
}

/**
 * Checks kept per theme and version of its files (`fingerprint`), so listing and reading the active theme
 * never re-run gscan: a check is made on upload and on the first activation or read of a stored theme.
 * Per process, as Ghost keeps them; another instance checks a theme once on its first read. Bounded: a few
 * themes are uploaded over and over while someone works on one.
 */
const checks = new Map<string, Promise<ThemeCheck>>();
const KEPT_CHECKS = 50;

export function cachedThemeCheck(name: string, fingerprint: string, check: () => Promise<ThemeCheck>): Promise<ThemeCheck> {
  const key = `${name}\n${fingerprint}`;
  let kept = checks.get(key);
  if (!kept) {
    kept = check();
    checks.set(key, kept);
    // A failed check is not kept: the next read tries again.
    kept.catch(() => checks.get(key) === kept && checks.delete(key));
    if (checks.size > KEPT_CHECKS) checks.delete(checks.keys().next().value!);
  }
  return kept;
}

/** Keeps the check made on upload for the files it stored. */
export function keepThemeCheck(name: string, fingerprint: string, check: ThemeCheck): void {
  checks.set(`${name}\n${fingerprint}`, Promise.resolve(check));
  if (checks.size > KEPT_CHECKS) checks.delete(checks.keys().next().value!);
}

/** Ghost's custom templates of a theme (`custom-*.hbs`, `post-*.hbs`, `page-*.hbs` at its top level). */
export function customTemplates(files: readonly string[]) {
  return files
    .filter((file) => /^(post-|page-|custom-)[^/]*\.hbs$/.test(file))
    .map((file) => {
      const template = file.replace(/\.hbs$/, '');
      const name = template
        .replace(/^(post-|page-|custom-)/, '')
        .replace(/-/g, ' ')
        .replace(/\b\w/g, (letter) => letter.toUpperCase())
        .trim();
      return {
        filename: template,
        name,
        for: template.startsWith('page-') ? ['page'] : template.startsWith('post-') ? ['post'] : ['page', 'post'],
        slug: template.startsWith('custom-') ? null : template.replace(/^(page-|post-)/, ''),
      };
    });
}
