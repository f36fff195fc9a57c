import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../errors.js';

/**
 * JSON bodies as Ghost's body-parser reads them: an empty body is `{}`; malformed JSON is a 400 with Ghost's
 * type (InternalServerError), code and the parser's text as context. Ghost's message is "An unexpected error
 * occurred, please try again.", which is all an SDK shows; ours says what is wrong (README, Errors).
 */
export function registerJsonParser(app: FastifyInstance) {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request: FastifyRequest, body: string | Buffer, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch (err) {
      done(
        errors.internal({
          message: 'The request body is not valid JSON.',
          context: (err as Error).message,
          code: 'UNEXPECTED_ERROR',
          status: 400,
        }),
        undefined,
      );
    }
  });
}
