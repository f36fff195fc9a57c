import semver from 'semver';
import type { Ctx } from '../../ctx.js';
import type { Db } from '../../db/connect.js';
import { errors } from '../../errors.js';
import { objectId } from '../../db/ids.js';
import { slugify } from '../../content/slugs.js';
import { invalidateSettings, readSetting } from '../../settings/settings.js';
import { zonedIso } from '../posts/posts.dates.js';
import { siteChanged } from '../posts/posts.publish.js';
import { ImportRun, type GhostExport, type ImportProblem } from './db.import-run.js';
import { importUsers } from './db.import-staff.js';
import { importTags } from './db.import-tags.js';
import { importNewsletters, importTiers } from './db.import-tiers.js';
import { importSettings } from './db.import-settings.js';
import { importPosts } from './db.import-posts.js';
import { importMembers } from './db.import-members.js';
import { importBenefits, importOffers, importSnippets } from './db.import-offers.js';
import { importCustomThemeSettings } from './db.import-theme-settings.js';
import { reportNotImported } from './db.import-coverage.js';
import { archiveProblems, installArchiveSiteFiles, installArchiveThemes } from './db.import-archive.js';
import { membersFromCsv } from './db.import-members-csv.js';

export interface ImportReport {
  problems: ImportProblem[];
  /** Rows written per table (settings: keys changed). */
  counts: Record<string, number>;
}

export interface ImportOptions {
  /** Runs in the import's transaction once every row is written: a background job marks itself done here. */
  complete?: (db: Db, report: ImportReport) => Promise<void>;
}

const HELP = 'https://ghost.org/docs/migration/custom/';

/**
 * Imports a Ghost export (Ghost 1 to 6 files and archives, and ours) in one transaction: it all lands, or on
 * any failure nothing does (an archive's themes and images, stored first, stay). Whatever of the file is not
 * imported is named in `problems` with its count and reason. Rows get new ids (the file's ids may exist here); references inside the file are mapped.
 * Records no webhook events and no audit actions, as Ghost's importer (internal context). Written as
 * `(ctx, export) → report` with no request in sight: large files run it as a background job (db.import-job.ts).
 */
export async function importGhostExport(ctx: Ctx, file: GhostExport, options: ImportOptions = {}): Promise<ImportReport> {
  checkStructure(file);
  const importTag = await importTagOf(ctx);
  const { archive } = file;
  const membersInJson = Array.isArray(file.data.members) && file.data.members.length > 0;
  const themes = archive ? await installArchiveThemes(ctx, archive) : { installed: new Set<string>(), problems: [] };
  const siteFiles = archive ? await installArchiveSiteFiles(ctx, archive) : [];
  const report = await ctx.write(async (w) => {
    // A retried transaction starts again from the file as it was read.
    const run = new ImportRun(w, { ...file.data });
    run.problems.push(...themes.problems, ...siteFiles, ...(archive ? archiveProblems(archive, membersInJson) : []));
    reportNotImported(run);
    await importUsers(run);
    await importTags(run, run.rows('posts').length > 0 ? importTag : null);
    await importNewsletters(run);
    await importSettings(run, themes.installed);
    await importTiers(run);
    await importBenefits(run);
    await importOffers(run);
    await importSnippets(run);
    await importCustomThemeSettings(run);
    await importPosts(run, run.idOf('tags', importTag.id));
    if (archive?.membersCsv && !membersInJson) await membersFromCsv(run, archive.membersCsv);
    await importMembers(run);
    // One site-wide change, as Ghost's answer invalidates the whole site; no event per imported row.
    siteChanged(w, '/*');
    const done: ImportReport = { problems: run.problems, counts: run.counts };
    await options.complete?.(w.db, done);
    return done;
  });
  // Settings read between the write and its commit may have cached the old values.
  invalidateSettings();
  return report;
}

/** Ghost's structure checks, with its messages. */
function checkStructure(file: GhostExport): void {
  if (!file.meta || typeof file.meta !== 'object') throw errors.incorrectUsage({ message: 'Wrong importer structure. `meta` is missing.', help: HELP });
  if (!file.meta.version) throw errors.incorrectUsage({ message: 'Wrong importer structure. `meta.version` is missing.', help: HELP });
  // Ghost 0.x files have no semver version: Ghost sends them through an older release first.
  if (!semver.valid(String(file.meta.version))) {
    throw errors.incorrectUsage({
      message: 'Detected unsupported file structure.',
      help: 'Please install Ghost 1.0, import the file and then update your blog to the latest Ghost version.\nVisit https://ghost.org/docs/update/ or ask for help in our https://forum.ghost.org.',
    });
  }
  if (!file.data || typeof file.data !== 'object' || Array.isArray(file.data)) {
    throw errors.incorrectUsage({ message: 'Wrong importer structure. `data` is missing.', help: HELP });
  }
}

/** Ghost tags every imported post with `#Import <YYYY-MM-DD HH:mm>` (site time zone), an internal tag. */
async function importTagOf(ctx: Ctx) {
  const timezone = (await readSetting(ctx.db, 'timezone')) ?? 'Etc/UTC';
  const name = `#Import ${zonedIso(ctx.clock.now(), timezone)!.slice(0, 16).replace('T', ' ')}`;
  return { id: objectId(), name, slug: slugify(name.replace(/^#/, 'hash-')), visibility: 'internal' };
}
