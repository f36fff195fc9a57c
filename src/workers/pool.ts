import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';

/**
 * The worker threads that take CPU-heavy work (rendering a post, converting html, bcrypt) off the event
 * loop, so one large post cannot hold up every other request. One pool per process, started on first use.
 *
 * The threads run the built entry `worker.mjs` (src/worker.ts bundled): next to `dist/main.mjs` and
 * `dist/cli.mjs` in a build, or the file named by `QUIRE_WORKER_FILE` (the test set-up builds one from the
 * sources). Tasks are the entry's named exports; callers use the typed wrappers beside each task.
 */
export interface WorkerPoolOptions {
  /** Most threads at once (default: defaultWorkerThreads()); more tasks wait in the queue. */
  threads?: number | null;
  /** The built worker entry. */
  file?: string | URL;
}

/** Up to four threads, one per core: the same cores serve the requests, so more would only queue on the CPU. */
export const defaultWorkerThreads = () => Math.max(1, Math.min(4, availableParallelism()));

/**
 * Threads end after this long without work, the last one too: each holds ~80 MB of warm renderers that a
 * site only reading does not need. A write after a quiet minute waits ~0.5 s for a thread to warm again;
 * writes while editing (autosaves every few seconds) keep it warm.
 */
const IDLE_THREAD_TIMEOUT_MS = 60_000;

let pool: Piscina | null = null;
let configured: WorkerPoolOptions = {};

function workerFile(): string {
  const file = configured.file ?? process.env.QUIRE_WORKER_FILE ?? new URL('./worker.mjs', import.meta.url);
  return String(file);
}

/** Sets the pool's size and entry before its first use (main.ts does, from the configuration). */
export function configureWorkerPool(options: WorkerPoolOptions): void {
  if (pool) throw new Error('the worker pool is already running');
  configured = options;
}

function started(): Piscina {
  pool ??= new Piscina({
    filename: workerFile(),
    minThreads: 0,
    maxThreads: configured.threads ?? defaultWorkerThreads(),
    idleTimeout: IDLE_THREAD_TIMEOUT_MS,
  });
  return pool;
}

/** Runs the worker entry's export `task` with `arg` (structured-cloned both ways) on a pool thread. */
export function runInWorker<T>(task: string, arg: unknown): Promise<T> {
  return started().run(arg, { name: task }) as Promise<T>;
}

export interface WorkerPoolStats {
  threads: number;
  queued: number;
  /** Share of the pool's capacity spent running tasks since it started, 0 to 1. */
  utilization: number;
}

export function workerPoolStats(): WorkerPoolStats {
  if (!pool) return { threads: 0, queued: 0, utilization: 0 };
  return { threads: pool.threads.length, queued: pool.queueSize, utilization: pool.utilization };
}

/** Waits for running tasks and ends the threads (graceful shutdown). */
export async function stopWorkerPool(): Promise<void> {
  const running = pool;
  pool = null;
  if (running) await running.close();
}
