import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { COMPRESSIBLE, MANIFEST_FILE, type AdminPackage } from './pin.js';
import { tarEntries } from './tar.js';

export interface AdminBuildState {
  /** The folder holds an `index.html` to serve. */
  readonly ready: boolean;
  /** The package version its manifest names; null for a build without one (a folder given by `ADMIN_APP_DIR`). */
  readonly version: string | null;
}

export function adminBuildState(dir: string): AdminBuildState {
  if (!existsSync(path.join(dir, 'index.html'))) return { ready: false, version: null };
  try {
    const manifest = JSON.parse(readFileSync(path.join(dir, MANIFEST_FILE), 'utf8')) as { version?: unknown };
    return { ready: true, version: typeof manifest.version === 'string' ? manifest.version : null };
  } catch {
    return { ready: true, version: null };
  }
}

export interface FetchResult {
  readonly version: string;
  readonly files: number;
  readonly bytes: number;
}

/**
 * Asks npm for the package's tarball (`npm pack`, so the user's registry, proxy and cache settings apply),
 * then installs its admin build into `dir` (`installAdminBuild`). Throws when npm cannot get it.
 */
export async function fetchAdminBuild(dir: string, pkg: AdminPackage, cwd = process.cwd()): Promise<FetchResult> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'quire-admin-'));
  try {
    await npmPack(`${pkg.name}@${pkg.version}`, scratch, cwd);
    const tarball = readdirSync(scratch).find((name) => name.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${pkg.name}@${pkg.version} left no tarball`);
    return installAdminBuild(readFileSync(path.join(scratch, tarball)), dir, pkg);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Checks the tarball against the pinned integrity, unpacks only the admin build (and the package's licence)
 * into a new folder beside `dir`, and swaps it in: a server serving `dir` meanwhile sees the old build or the
 * new one, never half of one.
 */
export function installAdminBuild(tarball: Buffer, dir: string, pkg: AdminPackage): FetchResult {
  const [algorithm, expected] = splitIntegrity(pkg.integrity);
  const actual = createHash(algorithm).update(tarball).digest('base64');
  if (actual !== expected) {
    throw new Error(`${pkg.name}@${pkg.version}: the tarball's ${algorithm} is ${actual}, not the pinned ${expected}; refusing it`);
  }
  const target = path.resolve(dir);
  mkdirSync(path.dirname(target), { recursive: true });
  const staging = `${target}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  let files = 0;
  let bytes = 0;
  let version: string | null = null;
  try {
    for (const entry of tarEntries(gunzipSync(tarball))) {
      if (entry.path === 'package/package.json') version = (JSON.parse(entry.body.toString('utf8')) as { version?: string }).version ?? null;
      const relative = entry.path === pkg.licensePath ? 'LICENSE' : entry.path.startsWith(pkg.buildPath) ? entry.path.slice(pkg.buildPath.length) : null;
      if (!relative || entry.type === 'directory') continue;
      if (entry.type !== 'file') throw new Error(`${pkg.name}@${pkg.version}: unexpected non-file entry ${entry.path}`);
      const file = path.join(staging, ...safeSegments(relative));
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, entry.body);
      // Ghost compresses the admin's answers (~44 MB of script and styles, ~13 MB gzipped): compressed once here,
      // the server sends the .gz to browsers that accept it and spends no CPU per request.
      if (COMPRESSIBLE.test(relative) && entry.body.length >= 1024) writeFileSync(`${file}.gz`, gzipSync(entry.body, { level: 6 }));
      files += 1;
      bytes += entry.body.length;
    }
    if (version !== pkg.version) throw new Error(`${pkg.name}: the tarball holds version ${version ?? 'unknown'}, not ${pkg.version}`);
    if (!existsSync(path.join(staging, 'index.html'))) throw new Error(`${pkg.name}@${pkg.version}: no ${pkg.buildPath}index.html in the tarball`);
    const manifest = { package: pkg.name, version: pkg.version, integrity: pkg.integrity, files, bytes };
    writeFileSync(path.join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    const old = `${target}.old-${process.pid}`;
    if (existsSync(target)) renameSync(target, old);
    renameSync(staging, target);
    rmSync(old, { recursive: true, force: true });
    return { version, files, bytes };
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}

function splitIntegrity(integrity: string): ['sha512' | 'sha384' | 'sha256', string] {
  const match = /^(sha512|sha384|sha256)-([A-Za-z0-9+/=]+)$/.exec(integrity);
  if (!match) throw new Error(`not a subresource integrity value: ${integrity}`);
  return [match[1] as 'sha512', match[2]!];
}

/** A path inside the build, as folder names: nothing that climbs out or means something else on some system. */
function safeSegments(relative: string): string[] {
  const segments = relative.split('/');
  if (segments.some((part) => part === '' || part === '.' || part === '..' || /[\\:\0]/.test(part))) {
    throw new Error(`unsafe path in the tarball: ${relative}`);
  }
  return segments;
}

/** `npm pack SPEC` into `destination`, through the npm that runs this install when there is one. */
function npmPack(spec: string, destination: string, cwd: string): Promise<void> {
  // Few retries: offline, the install should go on within seconds, not after npm's minute of back-off.
  const args = [
    'pack',
    spec,
    '--pack-destination',
    destination,
    '--loglevel=error',
    '--fetch-retries=1',
    '--fetch-retry-mintimeout=2000',
    '--fetch-retry-maxtimeout=5000',
  ];
  const npmCli = process.env.npm_execpath;
  const [command, argv] = npmCli && /npm-cli\.js$/.test(npmCli) ? [process.execPath, [npmCli, ...args]] : ['npm', args];
  return new Promise((resolve, reject) => {
    execFile(command, argv, { cwd, timeout: 300_000, shell: process.platform === 'win32' && command === 'npm' }, (err, _stdout, stderr) => {
      if (!err) return resolve();
      // npm's own words: its error code and the line saying what failed (`request to … failed, reason: …`).
      const lines = stderr.split('\n').map((line) => line.replace(/^npm (error|ERR!)\s*/, '').trim());
      const code = lines.find((line) => /^code \S+$/.test(line));
      const reason = lines.find((line) => /fail|reason|not found|404|integrity/i.test(line) && !line.startsWith('at ')) ?? `exit ${err.code ?? '?'}`;
      reject(new Error(`npm pack ${spec} failed: ${code ? `${code.slice(5)}, ` : ''}${reason}`));
    });
  });
}
