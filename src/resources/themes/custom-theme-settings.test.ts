import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useTestSite, withTestSite, type TestSite } from '../../../test/test-site.js';
import { makeStaff } from '../../../test/factories.js';
import { THEMES_DIR } from '../../../test/site/site-support.js';
import { CUSTOM_SETTING_EDITS, SETTINGS_DEMO, zipOfFiles } from '../../../test/fixtures/themes/broken-themes.mjs';

/** Ghost 5.130.6's answers for the same themes and edits, recorded by test/fixtures/themes/record.mjs. */
const here = path.dirname(fileURLToPath(import.meta.url));
type Answer = { status: number; body: Record<string, unknown> };
const RECORDED = JSON.parse(await readFile(path.join(here, '../../../test/fixtures/themes/recorded.json'), 'utf8')) as Record<string, Answer>;

type Setting = Record<string, unknown> & { id: string; key: string; value: unknown };
/** A list of settings without the row ids, which differ between two sites. */
const withoutIds = (body: Record<string, unknown>) => (body.custom_theme_settings as Setting[]).map(({ id: _id, ...rest }) => rest);
const errorsOf = (body: Record<string, unknown>) => (body.errors as Record<string, unknown>[]).map(({ id: _id, ...rest }) => rest);

const zipPart = (name: string, data: Buffer) => ({ file: { name, type: 'application/zip', data } });
async function uploadDemo(t: TestSite, files: Record<string, string> = SETTINGS_DEMO) {
  const res = await t.admin.upload('/themes/upload/', zipPart('settings-demo.zip', await zipOfFiles(files)));
  expect(res.statusCode, res.body).toBe(200);
}
const stored = (t: TestSite) =>
  t.db.selectFrom('custom_theme_settings').select(['theme', 'key', 'type', 'value']).where('theme', '=', 'settings-demo').orderBy('key').execute();
const customLine = async (t: TestSite) => /<p class="custom">(.*?)<\/p>/.exec((await t.app.inject({ url: '/' })).body)?.[1];

describe('custom theme settings', () => {
  const t = useTestSite();

  it('lists nothing for a theme without custom settings', async () => {
    // A fresh site's default theme has settings of its own: a theme without any is made active first.
    const { custom: _custom, ...config } = (JSON.parse(SETTINGS_DEMO['package.json']) as { config: Record<string, unknown> }).config;
    const plain = { ...SETTINGS_DEMO, 'package.json': JSON.stringify({ ...JSON.parse(SETTINGS_DEMO['package.json']), name: 'plain-demo', config }) };
    const upload = await t.admin.upload('/themes/upload/', zipPart('plain-demo.zip', await zipOfFiles(plain)));
    expect(upload.statusCode, upload.body).toBe(200);
    expect((await t.admin.put('/themes/plain-demo/activate/')).statusCode).toBe(200);
    const res = await t.admin.get('/custom_theme_settings/');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ custom_theme_settings: [] });
  });

  it("lists Source's settings with their defaults, as Ghost does", async () => {
    await t.admin.upload('/themes/upload/', zipPart('source.zip', await readFile(path.join(THEMES_DIR, 'source.zip'))));
    expect((await t.admin.put('/themes/source/activate/')).statusCode).toBe(200);
    const res = await t.admin.get('/custom_theme_settings/');
    expect(res.statusCode).toBe(200);
    expect(withoutIds(res.json())).toEqual(withoutIds(RECORDED['custom settings source']!.body));
    expect(res.json().custom_theme_settings[0].id).toMatch(/^[0-9a-f]{24}$/);
  });

  it('lists, checks and saves every type of setting, keeps values across a re-upload, as Ghost does', async () => {
    await uploadDemo(t);
    expect((await t.admin.put('/themes/settings-demo/activate/')).statusCode).toBe(200);
    const listed = await t.admin.get('/custom_theme_settings/');
    expect(withoutIds(listed.json())).toEqual(withoutIds(RECORDED['custom settings settings-demo']!.body));

    // Ghost's refusals, in its order, and nothing saved by any of them.
    const before = await stored(t);
    for (const name of ['unknown key', 'select not an option', 'boolean as a string', 'colour without a hash', 'no body']) {
      const res = await t.admin.put('/custom_theme_settings/', CUSTOM_SETTING_EDITS[name]);
      const recorded = RECORDED[`edit ${name}`]!;
      expect([res.statusCode, errorsOf(res.json())], name).toEqual([recorded.status, errorsOf(recorded.body)]);
    }
    expect(await stored(t)).toEqual(before);
    // One bad value refuses the whole edit.
    const mixed = await t.admin.put('/custom_theme_settings/', {
      custom_theme_settings: [
        { key: 'hero_text', value: 'Saved?' },
        { key: 'layout', value: 'Tiny' },
      ],
    });
    expect(mixed.statusCode).toBe(422);
    expect(await stored(t)).toEqual(before);

    const edit = await t.admin.put('/custom_theme_settings/', CUSTOM_SETTING_EDITS['every type']);
    expect(edit.statusCode).toBe(200);
    expect(edit.headers['x-cache-invalidate']).toBe('/*');
    expect(withoutIds(edit.json())).toEqual(withoutIds(RECORDED['edit every type']!.body));
    expect(withoutIds((await t.admin.get('/custom_theme_settings/')).json())).toEqual(withoutIds(RECORDED['custom settings after edits']!.body));
    expect((await stored(t)).find((row) => row.key === 'show_badge')).toEqual({ theme: 'settings-demo', key: 'show_badge', type: 'boolean', value: 'false' });

    await uploadDemo(t);
    expect(withoutIds((await t.admin.get('/custom_theme_settings/')).json())).toEqual(withoutIds(RECORDED['custom settings after re-upload']!.body));
  });

  it('follows a new version of the theme: a removed option resets, a changed type or a removed setting is dropped, a new one added', async () => {
    const pkg = JSON.parse(SETTINGS_DEMO['package.json']!) as { config: { custom: Record<string, Record<string, unknown>> } };
    const custom = pkg.config.custom;
    custom.layout = { ...custom.layout, options: ['Wide', 'Compact'] };
    custom.brand_color = { type: 'text', default: 'plain' };
    delete custom.post_note;
    custom.footer_text = { type: 'text', default: 'Bye' };
    await uploadDemo(t, { ...SETTINGS_DEMO, 'package.json': JSON.stringify(pkg) });
    const values = Object.fromEntries((await t.admin.get('/custom_theme_settings/')).json().custom_theme_settings.map((s: Setting) => [s.key, s.value]));
    expect(values).toEqual({
      layout: 'Wide',
      show_badge: false,
      brand_color: 'plain',
      hero_image: 'https://example.com/hero.jpg',
      hero_text: 'Welcome',
      footer_text: 'Bye',
    });
    expect((await stored(t)).map((row) => row.key)).toEqual(['brand_color', 'footer_text', 'hero_image', 'hero_text', 'layout', 'show_badge']);
    await uploadDemo(t);
  });

  it('stores site images in their __GHOST_URL__ form and answers them absolute', async () => {
    const res = await t.admin.put('/custom_theme_settings/', { custom_theme_settings: [{ key: 'hero_image', value: '/content/images/2026/01/hero.jpg' }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().custom_theme_settings.find((s: Setting) => s.key === 'hero_image').value).toBe('http://127.0.0.1:2368/content/images/2026/01/hero.jpg');
    expect((await stored(t)).find((row) => row.key === 'hero_image')?.value).toBe('__GHOST_URL__/content/images/2026/01/hero.jpg');
  });

  it('shows the saved values to templates as @custom, hiding a setting whose visibility does not hold', async () => {
    await t.admin.put('/custom_theme_settings/', {
      custom_theme_settings: [
        { key: 'layout', value: 'Wide' },
        { key: 'hero_text', value: 'Shown' },
        { key: 'show_badge', value: true },
      ],
    });
    expect(await customLine(t)).toBe('Wide|true|#ff0000|http://127.0.0.1:2368/content/images/2026/01/hero.jpg|Shown|');
    // hero_text is visible only with the Wide layout; the page cache forgets the old page at once.
    const edit = await t.admin.put('/custom_theme_settings/', { custom_theme_settings: [{ key: 'layout', value: 'Narrow' }] });
    expect(edit.statusCode).toBe(200);
    expect(await customLine(t)).toBe('Narrow|true|#ff0000|http://127.0.0.1:2368/content/images/2026/01/hero.jpg||');
  });

  it('refuses staff without the permission and integrations, as Ghost does', async () => {
    const editor = await makeStaff(t, 'Editor');
    const session = await t.session(editor);
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', CUSTOM_SETTING_EDITS['every type']],
    ] as const) {
      const asEditor = await t.app.inject({
        method,
        url: '/ghost/api/admin/custom_theme_settings/',
        headers: session,
        ...(body ? { payload: body as object } : {}),
      });
      expect(asEditor.statusCode).toBe(403);
      expect(asEditor.json().errors[0].type).toBe('NoPermissionError');
      const asIntegration = await t.admin.request(method, '/custom_theme_settings/', body, t.integration());
      const recorded = RECORDED[method === 'GET' ? 'integration custom settings' : 'integration edit custom settings']!;
      expect([asIntegration.statusCode, errorsOf(asIntegration.json())]).toEqual([recorded.status, errorsOf(recorded.body)]);
    }
  });
});

describe('custom theme settings of a theme active before they were stored', () => {
  it('lists the defaults (stored on first read) and @custom shows them without any write', async () => {
    await withTestSite(async (t) => {
      await uploadDemo(t);
      expect((await t.admin.put('/themes/settings-demo/activate/')).statusCode).toBe(200);
      await t.db.deleteFrom('custom_theme_settings').execute();
      expect(await customLine(t)).toBe('Wide|true|#ff0000||Hello|');
      expect(await stored(t)).toEqual([]);
      const listed = await t.admin.get('/custom_theme_settings/');
      expect(withoutIds(listed.json())).toEqual(withoutIds(RECORDED['custom settings settings-demo']!.body));
      expect(await stored(t)).toHaveLength(6);
    });
  });
});
