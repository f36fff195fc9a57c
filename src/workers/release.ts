import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/*
 * Runs on the worker threads (src/worker.ts). A task on a large post leaves its input, its result and everything
 * in between (parsed trees, the strings they were written to: 100 MB and more for a 12 MB post) as garbage in the
 * thread's heap. A thread waiting for its next task allocates nothing, so nothing collects that garbage: it stayed
 * resident until the next task, on top of the main thread's copies of the same post (issue 29). After a large
 * task the thread collects it at once, once its result has been sent. (The main thread uses collectGarbageNow
 * before writing a large post: posts.service.ts.)
 */

/** From this many characters of input a task counts as large (a few seconds of work, tens of MB of garbage). */
export const LARGE_TASK_CHARS = 1024 * 1024;

/**
 * V8's full collection, exposed once to this thread. `--expose-gc` is read when a context is made, so a fresh
 * context gives the function and the flag is cleared again at once (no other context of the process sees it).
 * The flag is the process's: another thread doing the same can clear it between this thread's two steps. Two
 * content threads starting large tasks together then failed a save with a 500 ("gc is not defined"; three threads
 * doing it in a loop: 65 attempts in 6,000 on Node 20), so an attempt that finds no function is made again.
 */
function fullCollection(): (options?: object) => void {
  for (let attempt = 1; ; attempt++) {
    setFlagsFromString('--expose-gc');
    try {
      const gc = runInNewContext('typeof gc === "function" ? gc : null') as ((options?: object) => void) | null;
      if (gc) return gc;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
    if (attempt === 100) throw new Error('V8 did not expose gc() to a new context with --expose-gc set');
  }
}

let collect: ((options?: object) => void) | null = null;
let pending = false;

/**
 * V8 keeps the subject of the thread's last successful regular-expression match alive (`RegExp.lastMatch`). After
 * a large save's task that was the stored html (reading time counts its words with a regular expression last):
 * 14 MB of a 12 MB mixed post that the collection could not free, still resident during the main thread's insert;
 * during the task, the source html the converter read (issue 29). A match on an empty string lets it go.
 */
const forgetLastMatchSubject = () => /^/.exec('');

/**
 * Whether this V8 keeps the pages its full collections empty pooled for reuse, resident, rather than giving them back
 * to the system: V8 12 (Node 22) and 13 (Node 24) do, V8 11 (Node 20) does not. With 100 MB of objects dropped, a
 * plain full collection left 97-102 MB of it resident on Node 22 and 87 MB on Node 24, the last-resort one 8-12 MB;
 * on Node 20 the plain one left 36 MB, and the same call with options left all of it.
 */
const POOLS_EMPTIED_PAGES = Number(process.versions.v8.split('.')[0]) >= 12;

/**
 * V8's "last resort" collection: full collections until nothing more is freed, then the young generation shrunk to
 * its least and the pooled pages given back to the system (an idle server on Node 24 kept ~20 MB of them resident
 * after a plain full collection).
 */
const LAST_RESORT = { type: 'major', execution: 'sync', flavor: 'last-resort' };

/**
 * A full collection now, on the calling thread (a worker's, or the main thread's before it writes a large post:
 * the insert's own copies would otherwise land on top of the garbage the post's conversion left behind), the last
 * match's subject let go first. Where V8 pools the pages it empties, the last-resort collection, so that they
 * leave the process: on Node 24 a 12 MB save rose +139-151 MB (prose) and +290-307 MB (the bench's mixed post)
 * before this and the collection before a large result is sent (stored-content.ts), +93-125 and +189-200 after.
 */
export function collectGarbageNow(): void {
  forgetLastMatchSubject();
  collect ??= fullCollection();
  if (POOLS_EMPTIED_PAGES) collect(LAST_RESORT);
  else collect();
}

/** Arguments and results of the large tasks finished since the last collection, to be emptied before it. */
let sent: unknown[] = [];

/**
 * Collects the thread's garbage after the current task's result has gone: the result is sent to the main thread
 * when the task's promise settles, and an immediate runs after that (the content pool lets its threads' event
 * loops turn between tasks: `atomics: 'async'` in pool.ts, under which piscina posts the result in the same turn).
 *
 * The task's argument and result are emptied first. piscina's worker keeps both in the frame of its message
 * handler, which waits there for the next task, so a large post's strings stayed in this thread's heap through the
 * main thread's insert, beside the main thread's copies: in about one 12 MB save in three (by whether V8 kept the
 * suspended frame's dead values), +35-45 MB at the save's peak (issue 29). Both are structured clones, this
 * thread's own, and nothing reads them once the result is sent.
 */
function collectAfterResult(...values: unknown[]): void {
  sent.push(...values);
  if (pending) return;
  pending = true;
  setImmediate(() => {
    pending = false;
    for (const value of sent) emptied(value);
    sent = [];
    collectGarbageNow();
  });
}

/** An object or array without its members (a string cannot be emptied: it stays until the next task). */
function emptied(value: unknown): void {
  if (Array.isArray(value)) value.length = 0;
  else if (typeof value === 'object' && value !== null) for (const key of Object.keys(value)) delete (value as Record<string, unknown>)[key];
}

/** `task`, followed by a full collection when `size(arg)` is at least LARGE_TASK_CHARS. */
export function releasingAfterLarge<A, R>(size: (arg: A) => number, task: (arg: A) => R): (arg: A) => R {
  return (arg: A) => {
    if (size(arg) < LARGE_TASK_CHARS) return task(arg);
    let result: R;
    try {
      result = task(arg);
    } catch (err) {
      collectAfterResult(arg);
      throw err;
    }
    if (result instanceof Promise)
      void result.then(
        (value: unknown) => collectAfterResult(arg, value),
        () => collectAfterResult(arg),
      );
    else collectAfterResult(arg, result);
    return result;
  };
}
