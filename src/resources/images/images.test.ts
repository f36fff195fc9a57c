import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useTestSite, type TestSite } from '../../../test/test-site.js';
import { useS3Server } from '../../../test/s3-server.js';
import { ghostError, SITE_URL, expectGhostError, expectRefused } from '../../../test/support.js';
import { icon, image, SVG, uploadMonth } from '../../../test/uploads.js';

const s3 = useS3Server();

describe.each([
  ['local disk', () => ({})],
  ['S3', () => s3.settings()],
])('images on %s', (_name, settings) => {
  const t: TestSite = useTestSite({ settings });

  it.each([
    ['png', 'image/png'],
    ['jpeg', 'image/jpeg'],
    ['gif', 'image/gif'],
    ['webp', 'image/webp'],
  ] as const)('uploads a %s, keeps its original as _o, and serves both', async (format, type) => {
    const bytes = await image(40, 30, format);
    const res = await t.admin.upload('/images/upload/', { file: { name: `Pic ${format}.${format}`, type, data: bytes }, ref: 'my-ref' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ images: [{ url: `${SITE_URL}content/images/${uploadMonth()}/Pic-${format}.${format}`, ref: 'my-ref' }] });

    const served = await t.file(res.json().images[0].url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe(type);
    expect(served.headers['cache-control']).toBe('public, max-age=31536000');
    expect(served.headers.etag).toBeTruthy();
    expect((await sharp(served.rawPayload).metadata()).width).toBe(40);
    const original = await t.file(res.json().images[0].url.replace(`.${format}`, `_o.${format}`));
    expect(original.statusCode).toBe(200);
    expect(original.rawPayload.equals(bytes)).toBe(true);
  });

  it('numbers a second upload of one name, and answers ref null when none is given', async () => {
    const data = await image(10, 10, 'png');
    const first = await t.admin.upload('/images/upload/', { file: { name: 'same_o.png', type: 'image/png', data } });
    const second = await t.admin.upload('/images/upload/', { file: { name: 'same.png', type: 'image/png', data } });
    expect(first.json().images[0]).toEqual({ url: `${SITE_URL}content/images/${uploadMonth()}/same.png`, ref: null });
    expect(second.json().images[0].url).toBe(`${SITE_URL}content/images/${uploadMonth()}/same-1.png`);
  });

  it('resizes images wider than 2000 px and keeps the untouched original', async () => {
    const res = await t.admin.upload('/images/upload/', { file: { name: 'wide.jpg', type: 'image/jpeg', data: await image(2400, 100, 'jpeg') } });
    const url: string = res.json().images[0].url;
    expect((await sharp((await t.file(url)).rawPayload).metadata()).width).toBe(2000);
    expect((await sharp((await t.file(url.replace('.jpg', '_o.jpg'))).rawPayload).metadata()).width).toBe(2400);
  });

  it('stores an SVG sanitised and serves it as an SVG, never resized', async () => {
    const res = await t.admin.upload('/images/upload/', { file: { name: 'logo.svg', type: 'image/svg+xml', data: SVG } });
    expect(res.statusCode).toBe(201);
    const url: string = res.json().images[0].url;
    const served = await t.file(url);
    expect(served.headers['content-type']).toBe('image/svg+xml');
    expect(served.body).toContain('<rect');
    expect(served.body).not.toContain('script');
    const sized = await t.file(url.replace('/content/images/', '/content/images/size/w600/'));
    expect(sized.statusCode).toBe(302);
    expect(sized.headers.location).toBe(new URL(url).pathname);
  });

  it('refuses an SVG with nothing of an image left once sanitised (415)', async () => {
    const res = await t.admin.upload('/images/upload/', { file: { name: 'bad.svg', type: 'image/svg+xml', data: '<script>alert(1)</script>' } });
    expectGhostError(res, { status: 415, type: 'UnsupportedMediaTypeError', message: 'Please select a valid SVG image' });
  });

  it('serves w600 of an uploaded jpeg resized, stores it, and reads the stored copy the second time', async () => {
    const res = await t.admin.upload('/images/upload/', { file: { name: 'big.jpg', type: 'image/jpeg', data: await image(1200, 600, 'jpeg') } });
    const url: string = res.json().images[0].url;
    const sizedUrl = url.replace('/content/images/', '/content/images/size/w600/');
    const first = await t.file(sizedUrl);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/jpeg');
    expect(await sharp(first.rawPayload).metadata()).toMatchObject({ width: 600, height: 300 });
    const second = await t.file(sizedUrl);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers['last-modified']).toBe(first.headers['last-modified']);

    const webp = await t.file(url.replace('/content/images/', '/content/images/size/w1000/format/webp/'));
    expect(webp.headers['content-type']).toBe('image/webp');
    expect((await sharp(webp.rawPayload).metadata()).format).toBe('webp');
  });

  it('makes a size once when many first requests come at once, each answer a whole image', async () => {
    const res = await t.admin.upload('/images/upload/', { file: { name: 'race.png', type: 'image/png', data: await image(1700, 20, 'png') } });
    const sizedUrl = res.json().images[0].url.replace('/content/images/', '/content/images/size/w1600/');
    const answers = await Promise.all(Array.from({ length: 6 }, () => t.file(sizedUrl)));
    for (const answer of answers) expect((await sharp(answer.rawPayload).metadata()).width).toBe(1600);
  });

  it('redirects a size Ghost does not make, or an unknown format, to the original', async () => {
    const url = `${SITE_URL}content/images/${uploadMonth()}/x.png`;
    const odd = await t.file(url.replace('/content/images/', '/content/images/size/w123/'));
    expect(odd.statusCode).toBe(302);
    expect(odd.headers.location).toBe(`/content/images/${uploadMonth()}/x.png`);
    const bmp = await t.file(url.replace('/content/images/', '/content/images/size/w600/format/bmp/'));
    expect(bmp.statusCode).toBe(302);
    expect(bmp.headers.location).toBe(url);
  });

  it('answers 404 for a missing file, a missing size source and a path that leaves the folder', async () => {
    expect((await t.file(`/content/images/${uploadMonth()}/none.png`)).statusCode).toBe(404);
    expect((await t.file(`/content/images/size/w600/${uploadMonth()}/none.png`)).statusCode).toBe(404);
    // inject() resolves %2e%2e as dot segments (WHATWG URL), so this asks for /etc/passwd, which is the site's:
    // its trailing-slash redirect, never a file. The encoded slash stays in the path and reaches the file handler.
    const climbed = await t.file('/content/images/%2e%2e/%2e%2e/etc/passwd');
    expect(climbed.statusCode).toBe(301);
    expect(climbed.headers.location).toBe('/etc/passwd/');
    expect((await t.file('/content/images/..%2f..%2f..%2fetc/passwd')).statusCode).toBe(404);
    expect((await t.file('/content/data/quire.db')).statusCode).toBe(404);
  });

  it('answers range and conditional requests', async () => {
    const data = await image(50, 50, 'png');
    const url: string = (await t.admin.upload('/images/upload/', { file: { name: 'range.png', type: 'image/png', data } })).json().images[0].url;
    const original = url.replace('.png', '_o.png');
    const part = await t.file(original, { range: 'bytes=0-9' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-9/${data.length}`);
    expect(part.rawPayload.equals(data.subarray(0, 10))).toBe(true);
    const tail = await t.file(original, { range: 'bytes=-5' });
    expect(tail.rawPayload.equals(data.subarray(data.length - 5))).toBe(true);
    expect((await t.file(original, { range: `bytes=${data.length + 10}-` })).statusCode).toBe(416);
    const whole = await t.file(original);
    expect((await t.file(original, { 'if-none-match': whole.headers.etag as string })).statusCode).toBe(304);
  });

  it('refuses a text file named x.png as Ghost does (400, image processing failed)', async () => {
    const res = await t.admin.upload('/images/upload/', { file: { name: 'x.png', type: 'image/png', data: 'hello\n' } });
    expectRefused(res, 400, 'upload image', { context: 'Image processing failed Unable to manipulate image.', help: 'Please verify that the image is valid' });
  });

  it('refuses a missing file (422), a type not on the list (415) and a file under another field name (400)', async () => {
    const none = await t.admin.upload('/images/upload/', { ref: 'x' });
    expectGhostError(none, { status: 422, type: 'ValidationError', message: 'Please select an image.', context: null });
    const text = await t.admin.upload('/images/upload/', { file: { name: 'x.txt', type: 'text/plain', data: 'hi' } });
    expectGhostError(text, { status: 415, type: 'UnsupportedMediaTypeError', message: 'Please select a valid image.' });
    const declared = await t.admin.upload('/images/upload/', { file: { name: 'a.png', type: 'text/plain', data: await image(5, 5, 'png') } });
    expect(declared.statusCode).toBe(415);
    const other = await t.admin.upload('/images/upload/', { other: { name: 'a.png', type: 'image/png', data: await image(5, 5, 'png') } });
    expectGhostError(other, { status: 400, type: 'BadRequestError', message: 'The request could not be understood.', code: 'LIMIT_UNEXPECTED_FILE' });
  });

  it("checks the purpose: a square profile image, Ghost's icon rules, and no other purpose", async () => {
    const wide = await image(20, 10, 'png');
    const profile = await t.admin.upload('/images/upload/', { file: { name: 'p.png', type: 'image/png', data: wide }, purpose: 'profile_image' });
    expectGhostError(profile, {
      status: 422,
      message: 'Validation error, cannot upload image.',
      context: 'Please select a valid image file with square dimensions.',
    });
    const small = await t.admin.upload('/images/upload/', { file: { name: 'i.png', type: 'image/png', data: await image(40, 40, 'png') }, purpose: 'icon' });
    expect(small.statusCode).toBe(422);
    expect(ghostError(small).context).toBe('Icon must be a .jpg, .webp, .svg or .png file, at least 60x60px, under 20MB.');
    const ico = await t.admin.upload('/images/upload/', { file: { name: 'favicon.ico', type: 'image/x-icon', data: await icon(64) }, purpose: 'icon' });
    expect(ico.statusCode).toBe(201);
    expect((await t.file(ico.json().images[0].url)).statusCode).toBe(200);
    const bogus = await t.admin.upload('/images/upload/', { file: { name: 'p.png', type: 'image/png', data: wide }, purpose: 'bogus' });
    expectGhostError(bogus, { status: 422, message: 'Validation error, cannot upload image.', context: 'Validation failed for purpose.', property: 'purpose' });
  });

  it('refuses a file over UPLOAD_MAX_BYTES while it streams in (413)', async () => {
    const { withTestSite } = await import('../../../test/test-site.js');
    await withTestSite(
      async (small) => {
        const res = await small.admin.upload('/images/upload/', { file: { name: 'big.png', type: 'image/png', data: Buffer.alloc(5000) } });
        expectGhostError(res, { status: 413, type: 'RequestEntityTooLargeError' });
      },
      { settings: { ...settings(), UPLOAD_MAX_BYTES: '1000' } },
    );
  });

  it('needs an authenticated caller', async () => {
    const res = await t.admin.upload('/images/upload/', { file: { name: 'a.png', type: 'image/png', data: await image(5, 5, 'png') } }, {});
    expect(res.statusCode).toBe(403);
    expect(ghostError(res).type).toBe('NoPermissionError');
  });
});
