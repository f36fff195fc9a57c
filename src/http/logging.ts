import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import type { FastifyServerOptions, RawRequestDefaultExpression } from 'fastify';
import { createRequire } from 'node:module';
import type PinoPretty from 'pino-pretty';

// pino-pretty (28 modules) is loaded only for the pretty format: a server logging JSON never needs it.
const loadPretty = () => createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;

export type LogFormat = 'json' | 'pretty';

/**
 * The server's logger: one JSON line per event with an ISO `time`, or pino-pretty's readable lines for a
 * person at a terminal. Values under the names below are replaced before they are written, whatever logged
 * them: credentials must never reach a log file (a test reads a whole session's log for them).
 */
export function loggerOptions({ level, format }: { level: string; format: LogFormat }, destination?: Writable): NonNullable<FastifyServerOptions['logger']> {
  const redact = {
    paths: [
      'password',
      '*.password',
      'token',
      '*.token',
      'secret',
      '*.secret',
      'authorization',
      '*.authorization',
      'cookie',
      '*.cookie',
      'headers',
      '*.headers',
    ],
    censor: '[redacted]',
  };
  const common = { level, redact, timestamp: () => `,"time":"${new Date().toISOString()}"` };
  if (format === 'pretty') {
    const stream = loadPretty()({
      destination: destination ?? 1,
      colorize: !destination && process.stdout.isTTY,
      translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l',
      ignore: 'pid,hostname',
      sync: true,
    });
    return { ...common, stream };
  }
  return destination ? { ...common, stream: destination } : common;
}

// Printable and bounded: the value goes into every log line of the request and back to the client.
const REQUEST_ID = /^[\x20-\x7e]{1,200}$/;

/**
 * A request's id: the caller's `X-Request-Id` (a proxy's or client's, to follow one request across
 * systems; Ghost echoes it too) when it is printable ASCII of at most 200 characters, else a fresh UUID.
 * It labels every log line of the request and is returned in `X-Request-Id` on every answer.
 */
export function requestIdOf(request: RawRequestDefaultExpression): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}
