import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** Where an installed package lives (its `umd/` builds are served from there). */
export function packageDir(pkg: string): string {
  return path.dirname(require.resolve(`${pkg}/package.json`));
}

/** The packages' versions, for cache-busting `?v=` in the URLs ghost_head prints. */
function versionOf(pkg: string): string {
  return (require(`${pkg}/package.json`) as { version: string }).version;
}

/** Paths under the site, and the package versions, for `{{ghost_head}}`. */
export function readerScripts(siteUrl: string) {
  const base = new URL('public/', siteUrl).toString();
  return {
    portal: { scriptUrl: `${base}portal/portal.min.js`, version: versionOf('@tryghost/portal') },
    sodoSearch: { scriptUrl: `${base}sodo-search/sodo-search.min.js`, stylesUrl: `${base}sodo-search/main.css`, version: versionOf('@tryghost/sodo-search') },
  };
}
