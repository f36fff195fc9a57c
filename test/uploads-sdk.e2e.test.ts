import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useS3Server } from './s3-server.js';
import { SITE_URL } from './support.js';
import { useSdks } from './sdk-support.js';
import { useTestSite, type TestSite } from './test-site.js';
import { image, mp3, themeZip } from './uploads.js';

// The Admin API SDK's upload methods against a listening server, on local disk and on S3: what a Ghost client sees.
const s3 = useS3Server();
const folder = mkdtempSync(path.join(tmpdir(), 'quire-sdk-uploads-'));

describe.each([
  ['local disk', () => ({})],
  ['S3', () => s3.settings(`sdk-${Date.now()}/`)],
])('upload SDK methods on %s', (_name, settings) => {
  const t: TestSite = useTestSite({ settings });
  const sdk = useSdks(t);

  /** Upload URLs name the configured SITE_URL; the test server listens on a port of its own. */
  const served = (url: string) => sdk.base + new URL(url).pathname;

  it('images.upload stores a jpeg whose w600 size is served resized, and a post can use it', async () => {
    const file = path.join(folder, 'sdk photo.jpg');
    writeFileSync(file, await image(1200, 800, 'jpeg'));
    const uploaded = await sdk.admin.images.upload({ file, ref: 'sdk-ref' });
    expect(uploaded).toEqual({ url: expect.stringMatching(new RegExp(`^${SITE_URL}content/images/\\d{4}/\\d{2}/sdk-photo\\.jpg$`)), ref: 'sdk-ref' });
    const sized = await fetch(served(uploaded.url.replace('/content/images/', '/content/images/size/w600/')));
    expect(sized.status).toBe(200);
    expect((await sharp(Buffer.from(await sized.arrayBuffer())).metadata()).width).toBe(600);

    const post = await sdk.admin.posts.add({ title: 'With an image', feature_image: uploaded.url });
    expect(post.feature_image).toBe(uploaded.url);
    const stored = await t.db.selectFrom('posts').select('feature_image').where('id', '=', post.id).executeTakeFirstOrThrow();
    expect(stored.feature_image).toBe(uploaded.url.replace(SITE_URL, '__GHOST_URL__/'));
  });

  it('media.upload and files.upload', async () => {
    const audio = path.join(folder, 'talk.mp3');
    writeFileSync(audio, mp3());
    const media = await sdk.admin.media.upload({ file: audio });
    expect(media.url).toMatch(/\/content\/media\/\d{4}\/\d{2}\/talk(-\d+)?\.mp3$/);
    expect((await fetch(served(media.url))).status).toBe(200);
    const pdf = path.join(folder, 'doc.pdf');
    writeFileSync(pdf, '%PDF-1.4 sdk');
    const file = await sdk.admin.files.upload({ file: pdf });
    expect(await (await fetch(served(file.url))).text()).toBe('%PDF-1.4 sdk');
  });

  it('themes.upload and themes.activate', async () => {
    const zip = path.join(folder, 'sdk-theme.zip');
    writeFileSync(zip, await themeZip('sdk-theme'));
    const theme = await sdk.admin.themes.upload({ file: zip });
    expect(theme).toMatchObject({ name: 'sdk-theme', active: false });
    expect(await sdk.admin.themes.activate('sdk-theme')).toMatchObject({ name: 'sdk-theme', active: true });
    await sdk.admin.themes.activate('quire');
  });
});
