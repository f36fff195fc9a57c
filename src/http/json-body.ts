import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * JSON bodies as Ghost's body-parser reads them: an empty body is `{}`; malformed JSON is a 400 that the
 * error renderer wraps as Ghost does (InternalServerError type, the parser's message as context).
 */
export function registerJsonParser(app: FastifyInstance) {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request: FastifyRequest, body: string | Buffer, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch (err) {
      done(Object.assign(new Error((err as Error).message), { statusCode: 400 }), undefined);
    }
  });
}
