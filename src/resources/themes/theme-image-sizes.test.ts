import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useTestSite } from '../../../test/test-site.js';
import { makePost } from '../../../test/factories.js';
import { image } from '../../../test/uploads.js';
import { SETTINGS_DEMO, zipOfFiles } from '../../../test/fixtures/themes/broken-themes.mjs';

/** settings-demo's package.json names `image_sizes` s (320 wide) and m (720 wide); Ghost lists neither. */
describe("the active theme's image sizes", () => {
  const t = useTestSite();
  const sizedUrl = (url: string, size: string) => url.replace('/content/images/', `/content/images/size/${size}/`);

  it('are made on demand once the theme is active, and the theme links them through img_url', async () => {
    const upload = await t.admin.upload('/images/upload/', { file: { name: 'wide.png', type: 'image/png', data: await image(1200, 600, 'png') } });
    expect(upload.statusCode).toBe(201);
    const url = upload.json().images[0].url as string;
    const theme = await t.admin.upload('/themes/upload/', {
      file: { name: 'settings-demo.zip', type: 'application/zip', data: await zipOfFiles(SETTINGS_DEMO) },
    });
    expect(theme.statusCode).toBe(200);

    // Not active yet: w320 is no size Ghost makes, so it answers with the original, as Ghost does for unknown sizes.
    const before = await t.file(sizedUrl(url, 'w320'));
    expect(before.statusCode).toBe(302);
    expect(before.headers.location).toBe(new URL(url).pathname);

    expect((await t.admin.put('/themes/settings-demo/activate/')).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100)); // the sizes are read again at most once a second
    const small = await t.file(sizedUrl(url, 'w320'));
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-type']).toBe('image/png');
    expect((await sharp(small.rawPayload).metadata()).width).toBe(320);
    const webp = await t.file(sizedUrl(url, 'w720/format/webp'));
    expect(webp.statusCode).toBe(200);
    expect(webp.headers['content-type']).toBe('image/webp');
    expect((await sharp(webp.rawPayload).metadata()).width).toBe(720);
    // A size neither Ghost nor the theme names still gets the original.
    expect((await t.file(sizedUrl(url, 'w321'))).statusCode).toBe(302);

    await makePost(t, { title: 'Pictured', status: 'published', feature_image: url });
    const page = await t.app.inject({ url: '/pictured/' });
    expect(page.statusCode).toBe(200);
    const src = /<img src="([^"]+)">/.exec(page.body)?.[1];
    expect(src).toBe(new URL(sizedUrl(url, 'w320')).pathname);
    expect((await t.file(src!)).statusCode).toBe(200);
  });

  it('follow the active theme: back to the built-in theme, its sizes are no longer made', async () => {
    const upload = await t.admin.upload('/images/upload/', { file: { name: 'other.png', type: 'image/png', data: await image(900, 300, 'png') } });
    const url = upload.json().images[0].url as string;
    expect((await t.admin.put('/themes/quire/activate/')).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await t.file(sizedUrl(url, 'w320'))).statusCode).toBe(302);
    expect((await t.file(sizedUrl(url, 'w600'))).statusCode).toBe(200);
  });
});
