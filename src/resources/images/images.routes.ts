import type { FastifyInstance } from 'fastify';
import { errors } from '../../errors.js';
import { beforeController, checkUploadedFile, controllerStarts, refOf, withUpload } from '../../http/upload.js';
import { sanitisedSvgOf, uploadImage, type ImagePurpose } from './images.service.js';
import { IMAGE_UPLOAD } from './images.types.js';

const PURPOSES: readonly ImagePurpose[] = ['image', 'profile_image', 'icon'];

function purposeOf(fields: Partial<Record<string, string>>): ImagePurpose {
  const purpose = fields.purpose ?? 'image';
  if ((PURPOSES as readonly string[]).includes(purpose)) return purpose as ImagePurpose;
  throw errors.validation({
    message: 'Validation failed for purpose.',
    property: 'purpose',
    details: [
      {
        keyword: 'enum',
        dataPath: '.purpose',
        schemaPath: 'images#/definitions/image/properties/purpose/enum',
        params: { allowedValues: PURPOSES },
        message: 'should be equal to one of the allowed values',
      },
    ],
  });
}

export function imagesRoutes(app: FastifyInstance) {
  app.post('/images/upload/', { config: { frame: { docName: 'images', method: 'upload' } } }, async (request, reply) => {
    beforeController(request);
    return withUpload(request, ['file'], async ({ files, fields }) => {
      const file = checkUploadedFile(IMAGE_UPLOAD, files.file);
      const svg = await sanitisedSvgOf(file);
      if (svg === null) throw errors.unsupportedMedia('Please select a valid SVG image');
      controllerStarts(request);
      const ref = refOf(fields, 'images');
      const url = await uploadImage(request.ctx, file, purposeOf(fields), svg);
      reply.status(201);
      return { images: [{ url, ref }] };
    });
  });
}
