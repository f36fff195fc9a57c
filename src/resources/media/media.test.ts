import { describe, expect, it } from 'vitest';
import { useS3Server } from '../../../test/s3-server.js';
import { ghostError, SITE_URL, expectGhostError } from '../../../test/support.js';
import { useTestSite, type TestSite } from '../../../test/test-site.js';
import { image, mp3, uploadMonth } from '../../../test/uploads.js';

const s3 = useS3Server();

describe.each([
  ['local disk', () => ({})],
  ['S3', () => s3.settings(`media-${Date.now()}/`)],
])('media and files on %s', (_name, settings) => {
  const t: TestSite = useTestSite({ settings });

  it('uploads audio with a poster image named after it, and serves both', async () => {
    const audio = mp3();
    const res = await t.admin.upload('/media/upload/', {
      file: { name: 'Talk 1.mp3', type: 'audio/mpeg', data: audio },
      thumbnail: { name: 'cover.PNG', type: 'image/png', data: await image(10, 10, 'png') },
      ref: 'r1',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      media: [
        {
          url: `${SITE_URL}content/media/${uploadMonth()}/Talk-1.mp3`,
          thumbnail_url: `${SITE_URL}content/media/${uploadMonth()}/Talk 1_thumb.png`.replace(' ', '-'),
          ref: 'r1',
        },
      ],
    });
    const served = await t.file(res.json().media[0].url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('audio/mpeg');
    expect(served.rawPayload.equals(audio)).toBe(true);
    const part = await t.file(res.json().media[0].url, { range: 'bytes=0-2' });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('ID3');
    expect((await t.file(res.json().media[0].thumbnail_url)).headers['content-type']).toBe('image/png');

    const second = await t.admin.upload('/media/upload/', { file: { name: 'Talk 1.mp3', type: 'audio/mpeg', data: audio } });
    expect(second.json().media[0]).toEqual({ url: `${SITE_URL}content/media/${uploadMonth()}/Talk-1-1.mp3`, thumbnail_url: null, ref: null });
  });

  it('replaces the poster of an uploaded media file', async () => {
    const media = await t.admin.upload('/media/upload/', { file: { name: 'clip.mp3', type: 'audio/mpeg', data: mp3() } });
    const url: string = media.json().media[0].url;
    const poster = await image(12, 12, 'png');
    const res = await t.admin.upload(
      '/media/thumbnail/upload/',
      { file: { name: 'anything.png', type: 'image/png', data: poster }, url, ref: 'p' },
      undefined,
      'PUT',
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ media: [{ url: url.replace('clip.mp3', 'clip_thumb.png'), ref: 'p' }] });
    expect((await t.file(res.json().media[0].url)).rawPayload.equals(poster)).toBe(true);
    const outside = await t.admin.upload(
      '/media/thumbnail/upload/',
      { file: { name: 'a.png', type: 'image/png', data: poster }, url: `${SITE_URL}content/images/../data/x.mp3` },
      undefined,
      'PUT',
    );
    expect(outside.statusCode).toBe(422);
    const none = await t.admin.upload('/media/thumbnail/upload/', { url }, undefined, 'PUT');
    expect(none.statusCode).toBe(422);
    expect(ghostError(none).message).toBe('Please select an image.');
  });

  it("answers Ghost's media errors: no file, a type not on the list, a bad poster, bytes that are no media", async () => {
    const none = await t.admin.upload('/media/upload/', { ref: 'x' });
    expectGhostError(none, { status: 422, type: 'ValidationError', message: 'Please select a media file.' });
    const png = await t.admin.upload('/media/upload/', { file: { name: 'a.png', type: 'image/png', data: await image(4, 4, 'png') } });
    expectGhostError(png, { status: 415, type: 'UnsupportedMediaTypeError', message: 'Please select a valid media file.' });
    const poster = await t.admin.upload('/media/upload/', {
      file: { name: 'a.mp3', type: 'audio/mpeg', data: mp3() },
      thumbnail: { name: 't.txt', type: 'text/plain', data: 'x' },
    });
    expect(poster.statusCode).toBe(415);
    expect(ghostError(poster).message).toBe('Please select a valid thumbnail.');
    const text = await t.admin.upload('/media/upload/', { file: { name: 'fake.mp3', type: 'audio/mpeg', data: 'just text' } });
    expect(text.statusCode).toBe(415);
  });

  it('uploads any file to /files/upload/ and serves it so that it runs no script', async () => {
    const res = await t.admin.upload('/files/upload/', { file: { name: 'Report 2026.pdf', type: 'application/pdf', data: '%PDF-1.4 test' }, ref: 'f' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ files: [{ url: `${SITE_URL}content/files/${uploadMonth()}/Report-2026.pdf`, ref: 'f' }] });
    expect((await t.file(res.json().files[0].url)).headers['content-type']).toBe('application/pdf');
    const html = await t.admin.upload('/files/upload/', { file: { name: 'page.html', type: 'text/html', data: '<script>alert(1)</script>' } });
    const served = await t.file(html.json().files[0].url);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toContain('sandbox');
    const none = await t.admin.upload('/files/upload/', { ref: 'x' });
    expectGhostError(none, { status: 422, type: 'ValidationError', message: 'Please select a file.' });
  });
});
