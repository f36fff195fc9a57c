import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Ctx } from '../../ctx.js';
import { GhostError } from '../../errors.js';
import { uploadTheme } from '../themes/themes.service.js';
import { storeRoutesYaml } from '../route-settings/route-settings.store.js';
import { storeRedirects } from '../redirects/redirects.store.js';
import type { ImportArchive, ImportProblem } from './db.import-run.js';

/**
 * The themes of a Ghost 6 archive (`themes/<name>.zip`), installed through the theme store as `POST
 * /themes/upload/` would (same checks; a theme of that name here is replaced). Returns the names installed,
 * so the file's `active_theme` can be activated, and a problem for each theme left out. Installed before the
 * rows are written and kept if the import then fails, as a zip's images are.
 */
export async function installArchiveThemes(ctx: Ctx, archive: ImportArchive): Promise<{ installed: Set<string>; problems: ImportProblem[] }> {
  const installed = new Set<string>();
  const problems: ImportProblem[] = [];
  for (const theme of archive.themes) {
    const folder = await mkdtemp(path.join(tmpdir(), 'quire-import-theme-'));
    try {
      const zipPath = path.join(folder, 'theme.zip');
      await writeFile(zipPath, theme.zip, { mode: 0o600 });
      const { view } = await uploadTheme(ctx, { path: zipPath, name: theme.name, type: 'application/zip', size: theme.zip.length });
      installed.add(view.name);
    } catch (err) {
      if (!(err instanceof GhostError)) throw err;
      problems.push(notImported(`theme "themes/${theme.name}"`, err.message, 'Themes'));
    }
    await rm(folder, { recursive: true, force: true });
  }
  return { installed, problems };
}

/**
 * The archive's routes.yaml and redirects file, validated as their upload endpoints validate them and stored
 * in their place (replacing the ones in effect), before the rows are written, as the themes are. A file that
 * does not validate is named in `problems` with Ghost's message and changes nothing.
 */
export async function installArchiveSiteFiles(ctx: Ctx, archive: ImportArchive): Promise<ImportProblem[]> {
  const problems: ImportProblem[] = [];
  const attempt = async (name: string, store: () => Promise<unknown>) => {
    try {
      await store();
    } catch (err) {
      if (!(err instanceof GhostError)) throw err;
      problems.push(notImported(`archive entry "${name}"`, err.message, 'Archive'));
    }
  };
  if (archive.routesYaml != null) await attempt('routes.yaml', () => storeRoutesYaml(ctx, archive.routesYaml!));
  const { redirects } = archive;
  if (redirects) await attempt(redirects.name, () => storeRedirects(ctx, redirects.text, redirects.format));
  return problems;
}

/** The archive's entries that are not read, each with its reason (`members.csv` too when the JSON has the members). */
export function archiveProblems(archive: ImportArchive, membersInJson: boolean): ImportProblem[] {
  const problems = archive.skipped.map((entry) => notImported(`archive entry "${entry.name}"`, entry.reason, 'Archive'));
  if (archive.membersCsv !== null && membersInJson) {
    problems.push(notImported('archive entry "members.csv"', "The export's JSON has the members; they are imported from there.", 'Archive'));
  }
  return problems;
}

function notImported(what: string, reason: string, help: string): ImportProblem {
  return { message: `Not imported: ${what} (1). ${reason}`, help, context: JSON.stringify({ what, count: 1, reason }) };
}
