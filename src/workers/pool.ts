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
  /** Most threads at once for content work (default: defaultWorkerThreads()); more tasks wait in the queue. */
  threads?: number | null;
  /** The built worker entry. */
  file?: string | URL;
  /** Longest a task may take, queued and running, before it fails (`WORKER_TASK_TIMEOUT_MS`); its thread is ended. */
  taskTimeoutMs?: number;
  /** Told when a task ran past its deadline; default: one line on stderr. */
  onDeadline?: (task: string, ms: number) => void;
}

/**
 * Which pool a task runs on. Staff logins (bcrypt) have a lane of their own, so content work (a large post
 * converting, a burst of saves) can never keep a login waiting, nor a login a save.
 */
export type Lane = 'content' | 'auth';

/** Up to four threads, one per core: the same cores serve the requests, so more would only queue on the CPU. */
export const defaultWorkerThreads = () => Math.max(1, Math.min(4, availableParallelism()));

/** How many content tasks run at once: the content lane's threads. */
export const contentThreads = () => configured.threads ?? defaultWorkerThreads();

/** WORKER_TASK_TIMEOUT_MS's default. */
export const DEFAULT_TASK_TIMEOUT_MS = 30_000;

/**
 * Threads end after this long without work, the last one too: each holds ~80 MB of warm renderers that a
 * site only reading does not need. A write after a quiet minute waits ~0.5 s for a thread to warm again;
 * writes while editing (autosaves every few seconds) keep it warm.
 */
const IDLE_THREAD_TIMEOUT_MS = 60_000;

/**
 * A content thread's young generation, both semi-spaces together (V8's default grows to 48 MB). A large post's
 * task filled it and it stayed resident beside the main thread's copies of the post; a render of an ordinary
 * post allocates far less than this between collections. Measured in issue 29 (bench/large-html-post.mjs).
 */
const CONTENT_YOUNG_GENERATION_MB = 8;

/** A task that ran past its deadline; its thread was ended (the pool starts another on demand). */
export class WorkerDeadlineError extends Error {
  override name = 'WorkerDeadlineError';
  constructor(
    readonly task: string,
    readonly ms: number,
    options: { cause: unknown },
  ) {
    super(`worker task ${task} did not finish within ${ms} ms (WORKER_TASK_TIMEOUT_MS); its thread was ended`, options);
  }
}

const pools = new Map<Lane, Piscina>();
let configured: WorkerPoolOptions = {};

function workerFile(): string {
  const file = configured.file ?? process.env.QUIRE_WORKER_FILE ?? new URL('./worker.mjs', import.meta.url);
  return String(file);
}

/** Sets the pool's size and entry before its first use (main.ts does, from the configuration). */
export function configureWorkerPool(options: WorkerPoolOptions): void {
  if (pools.size > 0) throw new Error('the worker pool is already running');
  configured = options;
}

function started(lane: Lane): Piscina {
  let pool = pools.get(lane);
  if (!pool) {
    pool = new Piscina({
      filename: workerFile(),
      minThreads: 0,
      // Logins are short and few at once: one thread keeps them apart from content work.
      maxThreads: lane === 'auth' ? 1 : contentThreads(),
      idleTimeout: IDLE_THREAD_TIMEOUT_MS,
      // Piscina's run and wait time histograms (never read here) hold about 0.7 MB of native memory each.
      recordTiming: false,
      // Between tasks a content thread's event loop turns (instead of blocking in Atomics.wait), so the garbage
      // of a large post's task is collected right after it (workers/release.ts) rather than at the next task.
      ...(lane === 'content' ? { atomics: 'async' as const, resourceLimits: { maxYoungGenerationSizeMb: CONTENT_YOUNG_GENERATION_MB } } : {}),
    });
    pools.set(lane, pool);
  }
  return pool;
}

export interface TaskOptions {
  lane?: Lane;
  /** This task's deadline instead of the configured one. */
  timeoutMs?: number;
}

/**
 * Runs the worker entry's export `task` with `arg` (structured-cloned both ways) on a pool thread. Past its
 * deadline the task fails with WorkerDeadlineError and, if it was running, its thread is terminated: a
 * runaway conversion cannot hold a thread, or the queue behind it, for ever.
 */
export function runInWorker<T>(task: string, arg: unknown, { lane = 'content', timeoutMs }: TaskOptions = {}): Promise<T> {
  const ms = timeoutMs ?? configured.taskTimeoutMs ?? DEFAULT_TASK_TIMEOUT_MS;
  const signal = AbortSignal.timeout(ms);
  return (started(lane).run(arg, { name: task, signal }) as Promise<T>).catch((err: unknown) => {
    if (!signal.aborted) throw err;
    (configured.onDeadline ?? ((name, limit) => console.error(`quire: worker task ${name} ran past its ${limit} ms deadline; its thread was ended`)))(task, ms);
    throw new WorkerDeadlineError(task, ms, { cause: err });
  });
}

export interface WorkerPoolStats {
  threads: number;
  queued: number;
  /** Share of the content pool's capacity spent running tasks since it started, 0 to 1. */
  utilization: number;
}

export function workerPoolStats(): WorkerPoolStats {
  const all = [...pools.values()];
  return {
    threads: all.reduce((sum, pool) => sum + pool.threads.length, 0),
    queued: all.reduce((sum, pool) => sum + pool.queueSize, 0),
    utilization: pools.get('content')?.utilization ?? 0,
  };
}

/** Waits for running tasks and ends the threads (graceful shutdown). */
export async function stopWorkerPool(): Promise<void> {
  const running = [...pools.values()];
  pools.clear();
  await Promise.all(running.map((pool) => pool.close()));
}
