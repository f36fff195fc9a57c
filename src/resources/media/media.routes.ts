import type { FastifyInstance } from 'fastify';
import { framesOf } from '../../http/frame.js';
import { errors } from '../../errors.js';
import { beforeController, checkUploadedFile, controllerStarts, refOf, withUpload } from '../../http/upload.js';
import { IMAGE_UPLOAD, MEDIA_UPLOAD, THUMBNAIL_UPLOAD } from '../images/images.types.js';
import { isAudioOrVideo, replaceMediaThumbnail, uploadMedia } from './media.service.js';

const frame = framesOf('media');

export function mediaRoutes(app: FastifyInstance) {
  app.post('/media/upload/', { config: { frame: frame('upload') } }, async (request, reply) => {
    beforeController(request);
    return withUpload(request, ['file', 'thumbnail'], async ({ files, fields }) => {
      const file = checkUploadedFile(MEDIA_UPLOAD, files.file);
      const thumbnail = files.thumbnail && checkUploadedFile(THUMBNAIL_UPLOAD, files.thumbnail);
      // Beyond Ghost, which trusts the name: bytes that are no audio or video are refused like a wrong type.
      if (!(await isAudioOrVideo(file))) throw errors.unsupportedMedia(MEDIA_UPLOAD.invalid);
      controllerStarts(request);
      const ref = refOf(fields, 'media');
      const { url, thumbnailUrl } = await uploadMedia(request.ctx, file, thumbnail);
      reply.status(201);
      return { media: [{ url, thumbnail_url: thumbnailUrl, ref }] };
    });
  });

  app.put('/media/thumbnail/upload/', { config: { frame: frame('uploadThumbnail') } }, async (request) => {
    beforeController(request);
    return withUpload(request, ['file'], async ({ files, fields }) => {
      const image = checkUploadedFile(IMAGE_UPLOAD, files.file);
      controllerStarts(request);
      const ref = refOf(fields, 'media');
      return { media: [{ url: await replaceMediaThumbnail(request.ctx, fields.url, image), ref }] };
    });
  });
}
