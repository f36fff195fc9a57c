import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';

/** How often Node looks for requests past REQUEST_TIMEOUT_MS (its default, 30 s, would let them run that much longer). */
const CHECK_INTERVAL_MS = 1000;

/**
 * Server options bounding how long a client may take to send its request (headers and body): past
 * `requestTimeoutMs` the connection is answered 408 and closed. The 408 is the one Node writes for Ghost
 * (no body, `Connection: close`), and each one is logged with why, since the client never sees our log.
 */
export function clientTimeoutOptions(requestTimeoutMs: number): {
  requestTimeout: number;
  http: http.ServerOptions;
  clientErrorHandler: NonNullable<FastifyServerOptions['clientErrorHandler']>;
} {
  return {
    requestTimeout: requestTimeoutMs,
    http: { connectionsCheckingInterval: Math.min(CHECK_INTERVAL_MS, requestTimeoutMs), headersTimeout: Math.min(60_000, requestTimeoutMs) },
    clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket) {
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
        this.log.warn(
          { remoteAddress: socket.remoteAddress, timeoutMs: requestTimeoutMs },
          'request timed out: the client did not send the whole request (headers and body) within REQUEST_TIMEOUT_MS; answered 408 and closed',
        );
        if (socket.writable) socket.write('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
        socket.destroy();
        return;
      }
      // Anything else as Fastify answers it by default.
      const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
      const message = status === 431 ? 'Exceeded maximum allowed HTTP header size' : 'Client Error';
      const body = `{"error":"${http.STATUS_CODES[status]}","message":"${message}","statusCode":${status}}`;
      this.log.trace({ err }, 'client error');
      if (socket.writable)
        socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Length: ${body.length}\r\nContent-Type: application/json\r\n\r\n${body}`);
      socket.destroy(err);
    },
  };
}
