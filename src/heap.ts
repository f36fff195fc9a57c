import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { collectGarbageNow } from './workers/release.js';

/*
 * How the server's V8 heap grows. By default it is tuned for throughput on a big machine: under read load the
 * young generation doubles up to 32 MB and the old generation to more than twice what is alive before a full
 * collection, and every page of both stays resident though most of it is garbage (peaks of 150–217 MB RSS over
 * 124 MB at start). The flags that would say otherwise (`--max-semi-space-size`) are read once when the heap is made,
 * so they hold only for starts that pass them, not `node dist/main.mjs` or a supervisor's own command line;
 * the two below are read by V8 each time it grows a space, so the server sets them itself. main.ts imports this
 * module first: loading it sets them before the rest of the bundle is evaluated, whose evaluation and start-up
 * would otherwise take the young generation to 16 MB before the server answers anything.
 */

/**
 * The young generation's ceiling, both semi-spaces together. At 8 MB a request costs the CPU it did at 32 MB;
 * at 4 MB some reads cost up to 1.2× (more of each request's objects outlive a scavenge).
 */
export const YOUNG_GENERATION_MB = 8;

/**
 * After a full collection the old generation may grow by this share of what survived before the next one
 * (V8's own factor is 1.1× to 4×, from the collector's speed). A ceiling on growth, not on size: a large post
 * or import still gets all the memory it needs.
 */
export const OLD_GENERATION_GROWTH_PERCENT = 20;

setFlagsFromString(`--heap-growing-percent=${OLD_GENERATION_GROWTH_PERCENT}`);
// V8 grows the new space by this factor when enough survived the scavenges since it last grew; 1 holds it.
setFlagsFromString('--semi-space-growth-factor=1');

const newSpaceBytes = (): number => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;

/**
 * From now on, lets the young generation grow up to `mb`: after each collection the growth factor is 2 while
 * the new space is under the ceiling and 1 at it (V8 shrinks the space when the process goes quiet; it grows
 * again under load). Collections are reported between turns of the event loop, so start-up's long synchronous
 * stretches would double it twice past the ceiling before a report: main.ts calls this once it listens. The
 * flag is the process's: worker threads' young generations grow only while the server's is under its ceiling.
 * Returns the function that stops it.
 */
export function growYoungGenerationUpTo(mb: number = YOUNG_GENERATION_MB): () => void {
  const ceiling = mb * 1024 * 1024;
  const observer = new PerformanceObserver(() => {
    // Set at every report, not only when the choice changes: a thread starting (a worker's isolate setting up its
    // heap) puts V8's process-wide factor back to 2 unseen by this thread, and the server's young generation then
    // grew to 32 MB and stayed there (issue 29: ~24 MB of a large save's peak). A few microseconds a report.
    setFlagsFromString(`--semi-space-growth-factor=${newSpaceBytes() >= ceiling ? 1 : 2}`);
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => observer.disconnect();
}

/**
 * How long the server must go without a request before it compacts its heap, once per quiet spell. V8's own
 * memory reducer would, but it waits for a low allocation rate, which it measures only at collections: a process
 * that has just gone quiet runs none, so it keeps the last load's rate and the reducer waits for its two-minute
 * watchdog. Until then the old generation keeps what the load left committed (22 MB for 15 MB alive: RSS 86–90 MB
 * a minute after bench/memory-phases.mjs's reads, 79.8–80.8 MB with this compaction).
 */
export const QUIET_MS = 10_000;

/**
 * A full collection that compacts every page, so the pages it empties go back to the system (on Node 22 and 24 the
 * last-resort collection, which also gives back the pages V8 keeps pooled: collectGarbageNow).
 */
export function compactHeapNow(): void {
  setFlagsFromString('--compact-on-every-full-gc');
  try {
    collectGarbageNow();
  } finally {
    setFlagsFromString('--no-compact-on-every-full-gc');
  }
}

/**
 * Calls `compact` once when a spell of requests is followed by `quietMs` without one (at most `2 × quietMs` after
 * the last request): never during traffic, and not again while the server stays quiet. Returns the stop function.
 */
export function compactWhenQuiet(
  server: { on(event: 'request', listener: () => void): unknown },
  { quietMs = QUIET_MS, compact = compactHeapNow }: { quietMs?: number; compact?: () => void } = {},
): () => void {
  let requestsInPeriod = 0;
  let garbageSinceCompaction = false;
  server.on('request', () => {
    requestsInPeriod++;
    garbageSinceCompaction = true;
  });
  const timer = setInterval(() => {
    if (requestsInPeriod === 0 && garbageSinceCompaction) {
      garbageSinceCompaction = false;
      compact();
    }
    requestsInPeriod = 0;
  }, quietMs);
  timer.unref();
  return () => clearInterval(timer);
}
