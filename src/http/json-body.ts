import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../errors.js';
import { holdYoungGeneration } from '../heap.js';

/** From this many characters a body's request holds the young generation until it is answered (heap.ts). */
const HOLD_FROM_CHARS = 1024 * 1024;
const releaseHold = Symbol('releaseYoungGenerationHold');
type HoldingRequest = FastifyRequest & { [releaseHold]?: () => void };

/**
 * JSON bodies as Ghost's body-parser reads them: an empty body is `{}`; malformed JSON is a 400 with Ghost's
 * type (InternalServerError), code and the parser's text as context. Ghost's message is "An unexpected error
 * occurred, please try again.", which is all an SDK shows; ours says what is wrong (README, Errors).
 */
export function registerJsonParser(app: FastifyInstance) {
  // A large body's work (parsing, checks, the write, the answer) runs in long synchronous stretches, between which
  // heap.ts cannot intervene; the hold ends with the answer, or when the client goes away.
  const release = async (request: FastifyRequest) => (request as HoldingRequest)[releaseHold]?.();
  app.addHook('onResponse', release);
  app.addHook('onRequestAbort', release);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request: FastifyRequest, body: string | Buffer, done) => {
    const text = body.toString();
    if (text.length >= HOLD_FROM_CHARS) (request as HoldingRequest)[releaseHold] = holdYoungGeneration();
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
