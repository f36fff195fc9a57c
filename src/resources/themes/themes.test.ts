import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { storageFor } from '../../storage/from-config.js';
import { useS3Server } from '../../../test/s3-server.js';
import { ghostError, expectGhostError } from '../../../test/support.js';
import { useTestSite, type TestSite } from '../../../test/test-site.js';
import { themeZip, zipOf } from '../../../test/uploads.js';

const s3 = useS3Server();
const zipPart = (name: string, data: Buffer) => ({ file: { name, type: 'application/zip', data } });

describe.each([
  ['local disk', () => ({})],
  ['S3', () => s3.settings(`themes-${Date.now()}/`)],
])('themes on %s', (_name, settings) => {
  const t: TestSite = useTestSite({ settings });
  const storage = () => storageFor(t.config);
  /** What a refused upload must leave untouched: every stored file, and the content folder. */
  const snapshot = async () => ({
    stored: (await storage().list('themes')).sort(),
    content: readdirSync(t.config.contentDir, { recursive: true }).map(String).sort(),
    // What the hostile entries name, were they unpacked where they point.
    escaped: [path.join(path.dirname(t.config.contentDir), 'evil.txt'), path.join(t.config.contentDir, '..', '..', 'evil.txt'), '/tmp/evil.txt'].filter(
      (file) => existsSync(file),
    ),
  });

  it("starts with the built-in theme, active, in Ghost's shape", async () => {
    const res = await t.admin.get('/themes/');
    expect(res.statusCode).toBe(200);
    expect(res.json().themes).toEqual([{ name: 'quire', package: expect.objectContaining({ name: 'quire', version: '1.0.0' }), active: true, templates: [] }]);
    const active = await t.admin.get('/themes/active/');
    expect(active.json().themes[0]).toMatchObject({ name: 'quire', active: true, templates: [] });
  });

  it('uploads, lists, activates, downloads and deletes a theme', async () => {
    const upload = await t.admin.upload('/themes/upload/', zipPart('My Theme.zip', await themeZip('my-theme')));
    expect(upload.statusCode).toBe(200);
    expect(upload.json().themes).toEqual([
      {
        name: 'My-Theme',
        package: { name: 'my-theme', version: '1.0.0', config: { image_sizes: { s: { width: 300 } } } },
        active: false,
        // gscan's findings that do not refuse a theme (no author e-mail, Koenig's CSS classes unstyled…).
        errors: expect.arrayContaining([expect.objectContaining({ code: 'GS010-PJ-AUT-EM-REQ', fatal: false, level: 'error' })]),
      },
    ]);
    expect((await t.admin.get('/themes/')).json().themes.map((theme: { name: string }) => theme.name)).toEqual(['My-Theme', 'quire']);

    const activated = await t.admin.put('/themes/My-Theme/activate/');
    expect(activated.statusCode).toBe(200);
    expect(activated.headers['x-cache-invalidate']).toBe('/*');
    expect(activated.json().themes[0]).toMatchObject({
      name: 'My-Theme',
      active: true,
      templates: [{ filename: 'custom-wide-page', name: 'Wide Page', for: ['page', 'post'], slug: null }],
    });
    expect((await t.admin.get('/themes/active/')).json().themes[0].name).toBe('My-Theme');
    const setting = await t.db.selectFrom('settings').select('value').where('key', '=', 'active_theme').executeTakeFirst();
    expect(setting?.value).toBe('My-Theme');

    const replaced = await t.admin.upload('/themes/upload/', zipPart('My Theme.zip', await themeZip('my-theme')));
    expect(replaced.headers['x-cache-invalidate']).toBe('/*');

    const download = await t.admin.get('/themes/My-Theme/download/');
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    expect(download.headers['content-disposition']).toBe('attachment; filename=My-Theme.zip');
    expect(download.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect(download.rawPayload.includes(Buffer.from('custom-wide-page.hbs'))).toBe(true);

    const activeDelete = await t.admin.del('/themes/My-Theme/');
    expectGhostError(activeDelete, { status: 422, message: 'Validation error, cannot delete theme.', context: 'Deleting the active theme is not allowed.' });
    await t.admin.put('/themes/quire/activate/');
    expect((await t.admin.del('/themes/My-Theme/')).statusCode).toBe(204);
    expect(await storage().list('themes/My-Theme')).toEqual([]);
    const gone = await t.admin.del('/themes/My-Theme/');
    expectGhostError(gone, { status: 404, message: 'Resource not found error, cannot delete theme.', context: 'Theme does not exist.' });
  });

  it('downloads the built-in theme and never deletes it', async () => {
    const download = await t.admin.get('/themes/quire/download/');
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.includes(Buffer.from('post.hbs'))).toBe(true);
    const res = await t.admin.del('/themes/quire/');
    expect(res.statusCode).toBe(422);
    expect(ghostError(res).context).toBe('Deleting the default theme is not allowed.');
    // Ghost's own default themes are not built in here: unknown until uploaded.
    for (const name of ['casper', 'source']) {
      expectGhostError(await t.admin.del(`/themes/${name}/`), {
        status: 404,
        message: 'Resource not found error, cannot delete theme.',
        context: 'Theme does not exist.',
      });
    }
  });

  it("refuses a theme without post.hbs with Ghost's ThemeValidationError, and stores nothing", async () => {
    const before = await snapshot();
    const res = await t.admin.upload(
      '/themes/upload/',
      zipPart(
        'broken.zip',
        await zipOf([
          { name: 'package.json', data: '{"name":"broken","version":"2.0.0"}' },
          { name: 'index.hbs', data: 'x' },
        ]),
      ),
    );
    expect(res.statusCode).toBe(422);
    const error = ghostError(res);
    expect(error).toMatchObject({ type: 'ThemeValidationError', message: 'Theme "broken" is not compatible or contains errors.' });
    expect(error.details).toMatchObject({ checkedVersion: '5.x', name: 'broken', version: '2.0.0', warnings: [] });
    const found = (error.details as { errors: { code: string; fatal: boolean }[] }).errors;
    expect(found.filter((e) => e.fatal)).toEqual([expect.objectContaining({ code: 'GS020-POST-REQ', fatal: true })]);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses activating a stored theme that is not valid, and an unknown one', async () => {
    await storage().write('themes/half/index.hbs', 'x');
    const invalid = await t.admin.put('/themes/half/activate/');
    expectGhostError(invalid, { status: 422, type: 'ThemeValidationError', message: 'Theme "half" is not compatible or contains errors.' });
    const unknown = await t.admin.put('/themes/nope/activate/');
    expectGhostError(unknown, {
      status: 422,
      type: 'ValidationError',
      message: 'nope cannot be activated because it was not found in the theme directory.',
      details: 'nope',
    });
    const download = await t.admin.get('/themes/nope/download/');
    expectGhostError(download, { status: 400, type: 'BadRequestError', message: 'Please select a valid theme.' });
    expect((await t.admin.get('/themes/active/')).json().themes[0].name).toBe('quire');
  });

  it("answers Ghost's upload errors: no file, not a zip, the built-in theme's name, a damaged zip", async () => {
    const none = await t.admin.upload('/themes/upload/', { ref: 'x' });
    expectGhostError(none, { status: 422, type: 'ValidationError', message: 'Please select a theme.' });
    const png = await t.admin.upload('/themes/upload/', { file: { name: 'a.png', type: 'image/png', data: 'x' } });
    expectGhostError(png, { status: 415, type: 'UnsupportedMediaTypeError', message: 'Please select a valid zip file.' });
    const quire = await t.admin.upload('/themes/upload/', zipPart('quire.zip', await themeZip('quire')));
    expect(quire.statusCode).toBe(422);
    expect(ghostError(quire).message).toBe("Please rename your zip, it's not allowed to override the default theme.");
    const damaged = await t.admin.upload('/themes/upload/', zipPart('damaged.zip', Buffer.from('not a zip at all')));
    expectGhostError(damaged, {
      status: 422,
      type: 'ValidationError',
      message: 'Failed to read zip file',
      context: 'damaged.zip',
      help: 'Your zip file might be corrupted, try unzipping and zipping again.',
    });
  });

  const valid = [
    { name: 'index.hbs', data: 'x' },
    { name: 'post.hbs', data: 'x' },
  ];
  it.each([
    [
      'a path that climbs out of the folder',
      () => zipOf([...valid, { name: 'XX/evil.txt', data: 'owned' }], { 'XX/evil.txt': '../evil.txt' }),
      /relative path|not a plain/,
    ],
    ['an absolute path', () => zipOf([...valid, { name: 'Xtmp/evil.txt', data: 'owned' }], { 'Xtmp/evil.txt': '/tmp/evil.txt' }), /absolute path|not a plain/],
    ['a symbolic link', () => zipOf([...valid, { name: 'assets/link', data: '/etc/passwd', mode: 0o120777 }]), /link/],
    [
      '10,000 entries',
      () => zipOf([...valid, ...Array.from({ length: 10_000 }, (_, i) => ({ name: `assets/f${i}.txt`, data: 'x', stored: true }))]),
      /entries/,
    ],
    ['a zip bomb', () => zipOf([...valid, { name: 'assets/zeros.bin', data: Buffer.alloc(20 * 1024 * 1024) }]), /compressed/],
  ])('refuses %s with a clear error and writes nothing', async (_case, make, reason) => {
    const before = await snapshot();
    const res = await t.admin.upload('/themes/upload/', zipPart('hostile.zip', await make()));
    expect(res.statusCode).toBe(422);
    const error = ghostError(res);
    expect(error).toMatchObject({ type: 'ValidationError', message: 'Failed to read zip file', context: 'hostile.zip' });
    expect(error.details).toMatch(reason);
    expect(await snapshot()).toEqual(before);
    expect((await t.admin.get('/themes/')).json().themes.map((theme: { name: string }) => theme.name)).not.toContain('hostile');
  });
});
