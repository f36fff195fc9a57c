import http from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import { v1 as uuidv1 } from 'uuid';
import { errors } from '../errors.js';
import { NO_CACHE } from './api-headers.js';
import { HEALTH_PREFIX } from './health.js';
import { errorBody } from './render-error.js';

/**
 * While new connections keep arriving, queued requests still start at least this often. Node (libuv ≥ 1.45)
 * accepts one new connection per event-loop turn; a turn that also runs requests lasts milliseconds, so a
 * burst of 1,000 readers waited seconds in the kernel's accept queue (bench/many-readers.mjs).
 */
const ACCEPT_FIRST_AT_MOST_MS = 100;
/** The longest one turn spends turning away requests that waited too long (each is cheap, but under overload many). */
const SHED_BUDGET_MS = 5;
/**
 * Requests started and not yet answered past which the rest wait in the queue, where they can be shed:
 * on a database server or a worker thread a started request waits elsewhere, out of the queue's sight.
 */
const MAX_IN_FLIGHT = 64;
/**
 * A started request holds its place for at most this long (half the queue timeout, so the requests behind it
 * start before they would be shed): one whose client sends its body or reads its answer slowly, or whose work is
 * long (an export), must not keep the site from starting others, as it would not without the queue.
 */
const holdLimitMs = (queueTimeoutMs: number) => (queueTimeoutMs > 0 ? queueTimeoutMs / 2 : 500);
/** What a shed request is told to wait before trying again (seconds). */
const RETRY_AFTER_S = 1;
/** Shed requests are logged as a count at most this often: under overload, a line each would add to it. */
const SHED_REPORT_MS = 10_000;

interface Started {
  since: number;
  released: boolean;
}

interface Waiting {
  request: http.IncomingMessage;
  response: http.ServerResponse;
  since: number;
}

const SHED_ERROR = errorBody(errors.maintenance({ message: 'The server is too busy to answer now; please try again shortly.', code: 'SERVER_BUSY' })).errors[0];

/**
 * A request turned away because it waited longer than `REQUEST_QUEUE_TIMEOUT_MS`: Ghost's 503 (a
 * MaintenanceError, with an id of its own as every Ghost error) and Retry-After, written without Fastify and
 * without making an Error, because under overload many are sent.
 */
function shed(response: http.ServerResponse): void {
  const body = JSON.stringify({ errors: [{ ...SHED_ERROR, id: uuidv1() }] });
  response.writeHead(503, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': NO_CACHE,
    'Retry-After': String(RETRY_AFTER_S),
  });
  response.end(body);
}

/**
 * Puts a queue between Node's HTTP server and Fastify so that overload answers some readers a quick 503
 * rather than every reader late. Requests start in arrival order, one per event-loop turn: a request's work
 * runs on after the call that starts it returns (its promises), so only a turn of its own keeps turns short,
 * and with them the wait of every other reader and of the next connection to be accepted. None starts while
 * connections are being accepted (up to ACCEPT_FIRST_AT_MOST_MS), so a burst of new readers gets in at once.
 * A request that waited longer than `queueTimeoutMs` (0: no limit) is answered 503 instead, `countShed` told of
 * each at once (Fastify, which counts the others, never sees it) and `onShed` how many were, a while later.
 * Health checks skip the queue.
 */
export function queuedServerFactory(
  queueTimeoutMs: number,
  onShed: (count: number) => void,
  countShed: (method: string) => void = () => undefined,
): FastifyServerFactory {
  return (handler, options) => {
    const waiting: (Waiting | undefined)[] = [];
    let head = 0;
    let shedCount = 0;
    let inFlight = 0;
    // Started requests in start order, to let the oldest go once they have held a place for holdLimitMs.
    const started: Started[] = [];
    let startedHead = 0;
    let agingTimer: NodeJS.Timeout | undefined;
    const holdLimit = holdLimitMs(queueTimeoutMs);
    let scheduled = false;
    let accepting = false;
    let lastStart = performance.now();

    const schedule = () => {
      if (scheduled) return;
      scheduled = true;
      setImmediate(run);
    };
    const release = (entry: Started) => {
      if (entry.released) return;
      entry.released = true;
      inFlight--;
    };
    const releaseAged = (now: number) => {
      while (startedHead < started.length && (started[startedHead]!.released || now - started[startedHead]!.since >= holdLimit)) {
        release(started[startedHead++]!);
      }
      if (startedHead > 1024 || startedHead === started.length) {
        started.splice(0, startedHead);
        startedHead = 0;
      }
    };
    /** At the cap with requests waiting, nothing may close for a while: look again when the oldest has held its place long enough. */
    const wakeWhenOldestAges = (now: number) => {
      if (agingTimer || startedHead === started.length) return;
      agingTimer = setTimeout(
        () => {
          agingTimer = undefined;
          schedule();
        },
        Math.max(1, started[startedHead]!.since + holdLimit - now),
      );
      agingTimer.unref();
    };
    const take = () => {
      const next = waiting[head]!;
      waiting[head++] = undefined;
      return next;
    };

    function run(): void {
      scheduled = false;
      const now = performance.now();
      if (accepting && now - lastStart < ACCEPT_FIRST_AT_MOST_MS) {
        accepting = false;
        schedule();
        return;
      }
      accepting = false;
      if (queueTimeoutMs > 0) {
        while (head < waiting.length && now - waiting[head]!.since > queueTimeoutMs && performance.now() - now < SHED_BUDGET_MS) {
          const { request, response } = take();
          if (request.socket.destroyed) continue;
          shed(response);
          countShed(request.method ?? 'GET');
          if (shedCount++ === 0)
            setTimeout(() => {
              onShed(shedCount);
              shedCount = 0;
            }, SHED_REPORT_MS).unref();
        }
      }
      while (head < waiting.length && waiting[head]!.request.socket.destroyed) take();
      releaseAged(now);
      if (head < waiting.length && inFlight < MAX_IN_FLIGHT) {
        lastStart = now;
        const { request, response } = take();
        const entry: Started = { since: now, released: false };
        started.push(entry);
        inFlight++;
        response.once('close', () => {
          release(entry);
          schedule();
        });
        handler(request, response);
      }
      if (head === waiting.length || head > 1024) {
        waiting.splice(0, head);
        head = 0;
      }
      if (waiting.length > 0) {
        if (inFlight < MAX_IN_FLIGHT) schedule();
        else wakeWhenOldestAges(now);
      }
    }

    const server = http.createServer(options.http ?? {}, (request, response) => {
      if (request.url?.startsWith(`${HEALTH_PREFIX}/`)) return handler(request, response);
      waiting.push({ request, response, since: performance.now() });
      schedule();
    });
    server.on('connection', () => {
      accepting = true;
    });
    // What Fastify sets on a server it makes itself (it has filled in its defaults by now).
    const timeouts = options as { keepAliveTimeout: number; requestTimeout: number; connectionTimeout: number };
    server.keepAliveTimeout = timeouts.keepAliveTimeout;
    server.requestTimeout = timeouts.requestTimeout;
    server.setTimeout(timeouts.connectionTimeout);
    return server;
  };
}
