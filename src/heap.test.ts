import { EventEmitter } from 'node:events';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compactHeapNow, compactWhenQuiet } from './heap.js';

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
