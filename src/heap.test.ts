import { EventEmitter } from 'node:events';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compactHeapNow, compactWhenQuiet, holdYoungGeneration } from './heap.js';

describe('compactWhenQuiet', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function serverWithCompactions(): { server: EventEmitter; compactions: () => number; stop: () => void } {
    const server = new EventEmitter();
    let count = 0;
    const stop = compactWhenQuiet(server, { quietMs: 1000, compact: () => count++ });
    return { server, compactions: () => count, stop };
  }

  it('compacts once after requests are followed by a quiet period, and not again while it stays quiet', () => {
    const { server, compactions, stop } = serverWithCompactions();
    vi.advanceTimersByTime(5000);
    expect(compactions()).toBe(0); // nothing was served: nothing to give back
    server.emit('request');
    vi.advanceTimersByTime(1000); // the period that saw the request
    expect(compactions()).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(compactions()).toBe(1);
    vi.advanceTimersByTime(10_000);
    expect(compactions()).toBe(1);
    server.emit('request');
    vi.advanceTimersByTime(2000);
    expect(compactions()).toBe(2);
    stop();
  });

  it('never compacts while requests keep coming', () => {
    const { server, compactions, stop } = serverWithCompactions();
    for (let i = 0; i < 20; i++) {
      server.emit('request');
      vi.advanceTimersByTime(900);
    }
    expect(compactions()).toBe(0);
    vi.advanceTimersByTime(2000);
    expect(compactions()).toBe(1);
    stop();
  });
});

it('compactHeapNow runs a full collection on this thread', async () => {
  const kinds: number[] = [];
  const observer = new PerformanceObserver((list) => kinds.push(...list.getEntries().map((entry) => (entry.detail as { kind: number }).kind)));
  observer.observe({ entryTypes: ['gc'] });
  compactHeapNow();
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  expect(kinds).toContain(constants.NODE_PERFORMANCE_GC_MAJOR);
});

/**
 * A thread that, when asked, keeps 3 million small objects alive (so scavenges see them survive, which is what
 * grows a young generation) and answers the size of its new space in MB.
 */
async function startAllocatingThread(): Promise<{ newSpaceMbAfterSurvivors: () => Promise<number>; stop: () => Promise<number> }> {
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     const { getHeapSpaceStatistics } = require('node:v8');
     parentPort.on('message', () => {
       const keep = [];
       for (let i = 0; i < 3e6; i++) keep.push({ i });
       parentPort.postMessage(getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1048576);
     });`,
    { eval: true },
  );
  // The thread's heap set-up sets V8's process-wide growth factor (back to 2): only what is set after counts.
  await new Promise((resolve) => worker.once('online', resolve));
  return {
    newSpaceMbAfterSurvivors: () => new Promise<number>((resolve) => (worker.once('message', resolve), worker.postMessage('go'))),
    stop: () => worker.terminate(),
  };
}

it('holdYoungGeneration keeps young generations from growing until it is released', async () => {
  const held = await startAllocatingThread();
  const release = holdYoungGeneration();
  const heldMb = await held.newSpaceMbAfterSurvivors();
  release();
  await held.stop();

  const free = await startAllocatingThread();
  setFlagsFromString('--semi-space-growth-factor=2'); // what heap.ts's observer sets under its ceiling
  const freeMb = await free.newSpaceMbAfterSurvivors();
  await free.stop();
  setFlagsFromString('--semi-space-growth-factor=1');

  expect(heldMb).toBeLessThanOrEqual(2); // a new thread's new space, not grown
  expect(freeMb).toBeGreaterThan(heldMb * 4);
});
