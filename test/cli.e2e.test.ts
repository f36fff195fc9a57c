import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBuildAndFolder } from './instances.js';

// The built command line (`dist/cli.mjs`, the package's `quire` bin) and server entry (`dist/main.mjs`) as
// processes: what they print, where, and their exit codes (0 done or help, 1 failed, 2 called wrongly).
const root = path.resolve(import.meta.dirname, '..');

const folder = useBuildAndFolder('quire-cli-e2e-');

function run(file: 'cli' | 'main', ...args: string[]) {
  const { DATABASE_URL: _db, SITE_URL: _site, PORT: _port, ...inherited } = process.env;
  // PORT 1 (privileged): a server that wrongly started would fail at once instead of serving.
  const env = { ...inherited, CONTENT_DIR: folder.path, PORT: '1', LOG_LEVEL: 'warn' };
  const result = spawnSync(process.execPath, [`dist/${file}.mjs`, ...args], { cwd: root, env, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('quire', () => {
  it('--help and help list the commands on stdout, exit 0', () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const { code, stdout, stderr } = run('cli', ...args);
      expect([code, stderr], args.join(' ')).toEqual([0, '']);
      expect(stdout).toMatch(/^usage: quire <command> \[options\]\n/);
      for (const command of ['setup', 'export', 'import', 'backup']) expect(stdout).toMatch(new RegExp(`\\n  ${command} +\\S`));
    }
  });

  it('<command> --help and help <command> describe the command, exit 0', () => {
    const setup = run('cli', 'setup', '--help');
    expect([setup.code, setup.stderr]).toEqual([0, '']);
    expect(setup.stdout).toMatch(/^usage: quire setup \[--email EMAIL\] .*\n\nCreates the owner/);
    expect(setup.stdout).toContain('--integration NAME');
    expect(run('cli', 'help', 'setup').stdout).toBe(setup.stdout);
    const exported = run('cli', 'export', '-h');
    expect([exported.code, exported.stdout.split('\n')[0]]).toEqual([0, 'usage: quire export --file FILE']);
  });

  it('admin fetch has its own help and usage errors', () => {
    const help = run('cli', 'admin', '--help');
    expect([help.code, help.stdout.split('\n')[0]]).toEqual([0, 'usage: quire admin fetch [--force] [--install]']);
    expect(run('cli', '--help').stdout).toMatch(/\n  admin +fetch Ghost's admin app/);
    for (const [args, first] of [
      [['admin'], 'quire admin: no sub-command given'],
      [['admin', 'frob'], "quire admin: unknown sub-command 'frob'"],
    ] as const) {
      const { code, stderr } = run('cli', ...args);
      expect([code, stderr.split('\n')[0]], args.join(' ')).toEqual([2, first]);
    }
  });

  it('names what is wrong on the first line of stderr and exits 2', () => {
    const cases: [string[], string, string][] = [
      [[], 'quire: no command given', 'usage: quire <command> [options]'],
      [['frobnicate'], "quire: unknown command 'frobnicate'", 'commands: setup, export, import, backup, admin (quire --help describes them)'],
      [['help', 'nope'], "quire: unknown command 'nope'", 'commands: setup, export, import, backup, admin (quire --help describes them)'],
      [
        ['--verbose', 'setup'],
        "quire: unknown option '--verbose' (options come after the command)",
        'commands: setup, export, import, backup, admin (quire --help describes them)',
      ],
      [['export'], 'quire export: missing --file', 'usage: quire export --file FILE'],
      [['import', '--file'], 'quire import: --file needs a value', 'usage: quire import --file FILE'],
      [['backup', '--file', 'a.db', 'b.db'], "quire backup: unexpected argument 'b.db'", 'usage: quire backup --file FILE'],
      [
        ['setup', '--emial', 'me@example.com'],
        "quire setup: unknown option '--emial'",
        'usage: quire setup [--email EMAIL] [--password PASSWORD] [--name NAME] [--title TITLE] [--integration NAME]',
      ],
    ];
    for (const [args, first, second] of cases) {
      const { code, stdout, stderr } = run('cli', ...args);
      expect([code, stdout, stderr.split('\n').slice(0, 2)], args.join(' ')).toEqual([2, '', [first, second]]);
    }
  });

  it('setup prints KEY=value lines on stdout and what it did on stderr; a conflicting --email exits 1 with one line', () => {
    const first = run('cli', 'setup', '--email', 'cli@example.com', '--integration', 'CLI test');
    expect(first.code).toBe(0);
    expect(first.stderr).toBe(
      'quire: set up the site "Quire" with the owner cli@example.com (a random password, printed below)\nquire: created the integration "CLI test"\n',
    );
    const lines = first.stdout.trim().split('\n');
    expect(lines.map((line) => line.split('=')[0])).toEqual([
      'OWNER_EMAIL',
      'OWNER_PASSWORD',
      'ADMIN_KEY',
      'CONTENT_KEY',
      'ADMIN_API_URL',
      'CONTENT_API_URL',
      'ADMIN_URL',
    ]);
    expect(lines).toContain('ADMIN_API_URL=http://localhost:1');

    const again = run('cli', 'setup', '--integration', 'CLI test');
    expect(again.code).toBe(0);
    expect(again.stdout.trim().split('\n')).toEqual(lines.slice(2));
    expect(again.stderr).toBe(
      'quire: the site was already set up: the owner cli@example.com was left as it was\nquire: reused the integration "CLI test": its keys are unchanged\n',
    );

    const conflict = run('cli', 'setup', '--email', 'other@example.com');
    expect([conflict.code, conflict.stdout]).toEqual([1, '']);
    expect(conflict.stderr).toMatch(
      /^quire setup: the site is already set up and its owner is cli@example\.com, not other@example\.com: nothing was changed\. .*\n$/,
    );
  });
});

describe('the server entry', () => {
  it('prints its help for --help and exits 0 without serving', () => {
    const { code, stdout, stderr } = run('main', '--help');
    expect([code, stderr]).toEqual([0, '']);
    expect(stdout).toMatch(/^usage: node dist\/main\.mjs/);
    expect(stdout).toContain('It takes no arguments');
  });

  it('refuses any other argument with exit code 2 instead of serving', () => {
    for (const args of [['--port', '3000'], ['setup'], ['-h', 'extra']]) {
      const { code, stdout, stderr } = run('main', ...args);
      expect([code, stdout], args.join(' ')).toEqual([2, '']);
      expect(stderr.split('\n')[0]).toBe(
        `quire: the server takes no arguments (given: ${args.map((arg) => `'${arg}'`).join(' ')}); settings come from environment variables`,
      );
    }
  });
});
