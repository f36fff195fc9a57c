import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useTestSite } from '../../../test/test-site.js';
import { THEMES_DIR } from '../../../test/site/site-support.js';
import { BROKEN_THEMES, zipOfFiles } from '../../../test/fixtures/themes/broken-themes.mjs';

/**
 * gscan's findings against Ghost 5.130.6's own answers for the same theme files, recorded from the peer by
 * test/fixtures/themes/record.mjs: Ghost's default themes (uploaded there under other names, since Ghost
 * ships them built in) and three broken themes.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
type Answer = { status: number; body: Record<string, unknown> };
const RECORDED = JSON.parse(await readFile(path.join(here, '../../../test/fixtures/themes/recorded.json'), 'utf8')) as Record<string, Answer>;

type ThemeObject = Record<string, unknown> & { errors?: unknown; warnings?: unknown };
const themeOf = (body: Record<string, unknown>) => (body.themes as ThemeObject[])[0]!;
/** What gscan decides on a theme object: whether `errors`/`warnings` are there, and what they hold. */
const findings = (theme: ThemeObject) => ({ errors: theme.errors, warnings: theme.warnings });
/** A ThemeValidationError's body, without what differs by design: the error's id and the server's folder. */
function validationError(body: Record<string, unknown>) {
  const error = { ...(body.errors as Record<string, unknown>[])[0]! };
  const details = { ...(error.details as Record<string, unknown>) };
  delete error.id;
  delete details.path;
  return { ...error, details };
}

const zipPart = (name: string, data: Buffer) => ({ file: { name, type: 'application/zip', data } });

describe("gscan's findings, as Ghost answers them", () => {
  const t = useTestSite();

  it.each(['casper', 'source'])('uploads and activates %s under its own name with the findings Ghost gives', async (theme) => {
    const upload = await t.admin.upload('/themes/upload/', zipPart(`${theme}.zip`, await readFile(path.join(THEMES_DIR, `${theme}.zip`))));
    expect(upload.statusCode).toBe(RECORDED[`upload ${theme}`]!.status);
    const uploaded = themeOf(upload.json());
    expect(uploaded).toMatchObject({ name: theme, active: false });
    expect(findings(uploaded)).toEqual(findings(themeOf(RECORDED[`upload ${theme}`]!.body)));
    expect(uploaded.package).toEqual(themeOf(RECORDED[`upload ${theme}`]!.body).package);

    const activate = await t.admin.put(`/themes/${theme}/activate/`);
    expect(activate.statusCode).toBe(200);
    expect(findings(themeOf(activate.json()))).toEqual(findings(themeOf(RECORDED[`activate ${theme}`]!.body)));
    const active = await t.admin.get('/themes/active/');
    expect(findings(themeOf(active.json()))).toEqual(findings(themeOf(RECORDED[`active ${theme}`]!.body)));
    await t.admin.put('/themes/quire/activate/');
  });

  it.each(['no-index', 'unknown-helper'])("refuses the %s theme with Ghost's ThemeValidationError, its fatal and other errors", async (name) => {
    const recorded = RECORDED[`upload ${name}`]!;
    expect(recorded.status).toBe(422);
    const res = await t.admin.upload('/themes/upload/', zipPart(`${name}.zip`, await zipOfFiles(BROKEN_THEMES[name]!)));
    expect(res.statusCode).toBe(422);
    expect(validationError(res.json())).toEqual(validationError(recorded.body));
    expect((await t.admin.get('/themes/')).json().themes.map((theme: { name: string }) => theme.name)).not.toContain(name);
  });

  it('stores a theme whose package.json cannot be parsed, with the errors Ghost lists (none fatal)', async () => {
    const recorded = RECORDED['upload bad-package']!;
    const res = await t.admin.upload('/themes/upload/', zipPart('bad-package.zip', await zipOfFiles(BROKEN_THEMES['bad-package']!)));
    expect(res.statusCode).toBe(recorded.status);
    expect(themeOf(res.json())).toEqual(themeOf(recorded.body));
    // Listing runs no check and shows no findings, as Ghost's browse; the active theme's come from the kept check.
    const listed = (await t.admin.get('/themes/')).json().themes as ThemeObject[];
    expect(listed.find((theme) => theme.name === 'bad-package')).toEqual({ name: 'bad-package', package: false, active: false });
    const activated = await t.admin.put('/themes/bad-package/activate/');
    expect(activated.statusCode).toBe(200);
    expect(themeOf(activated.json()).errors).toEqual(themeOf(recorded.body).errors);
    expect(themeOf((await t.admin.get('/themes/active/')).json()).errors).toEqual(themeOf(recorded.body).errors);
    await t.admin.put('/themes/quire/activate/');
  });

  it("refuses to activate a stored theme with fatal errors, with Ghost's error", async () => {
    // Written where an upload would put it, bypassing the upload's check (a theme stored by an older version).
    const files = BROKEN_THEMES['unknown-helper']!;
    const { storageFor } = await import('../../storage/from-config.js');
    const storage = storageFor(t.config);
    for (const [file, text] of Object.entries(files)) await storage.write(`themes/unknown-helper/${file}`, Buffer.from(text));
    const res = await t.admin.put('/themes/unknown-helper/activate/');
    expect(res.statusCode).toBe(422);
    expect(validationError(res.json())).toEqual(validationError(RECORDED['upload unknown-helper']!.body));
    expect(themeOf((await t.admin.get('/themes/active/')).json()).name).toBe('quire');
  });

  it("answers Ghost's errors for deleting the active theme and unknown themes", async () => {
    const zip = zipPart('casper.zip', await readFile(path.join(THEMES_DIR, 'casper.zip')));
    expect((await t.admin.upload('/themes/upload/', zip)).statusCode).toBe(200);
    await t.admin.put('/themes/casper/activate/');
    const strip = (body: Record<string, unknown>) => (body.errors as Record<string, unknown>[]).map(({ id: _id, ...rest }) => rest);
    const active = await t.admin.del('/themes/casper/');
    expect([active.statusCode, strip(active.json())]).toEqual([RECORDED['delete active']!.status, strip(RECORDED['delete active']!.body)]);
    const unknown = await t.admin.del('/themes/no-such-theme/');
    expect([unknown.statusCode, strip(unknown.json())]).toEqual([RECORDED['delete unknown']!.status, strip(RECORDED['delete unknown']!.body)]);
    const download = await t.admin.get('/themes/no-such-theme/download/');
    expect([download.statusCode, strip(download.json())]).toEqual([RECORDED['download unknown']!.status, strip(RECORDED['download unknown']!.body)]);
    await t.admin.put('/themes/quire/activate/');
    expect((await t.admin.del('/themes/casper/')).statusCode).toBe(204);
  });
});
