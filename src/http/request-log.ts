import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** What the request's log line says about the error it was answered with (render-error.ts sets it). */
export interface AnsweredError {
  type: string;
  message: string;
  context: string | null;
  /** The `id` the client received in the error body: a user's report leads to this line. */
  id: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    answeredError?: AnsweredError;
  }
}

/**
 * One line per request, written when it completes: method, path, status, time, and for an error answer its
 * type, message and id; the request id labels it (`request_id`). No query string (it may hold a key) and no
 * headers (they hold credentials).
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      path: request.url.split('?')[0],
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ...(request.answeredError ? { error: request.answeredError } : {}),
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (reply.statusCode >= 500) reply.log.error(line, 'request failed');
    else if (request.answeredError) reply.log.info(line, 'request refused');
    else reply.log.info(line, 'request');
  }
}
