// The entry step's worker threads start with a bounded heap (build/write/entries.ts ENTRY_WORKER_HEAP_MB):
// unbounded, V8 lets each grow far past what it holds, and the two make most of a large build's peak memory.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { describe, it } from 'node:test';

import { ENTRY_WORKER_HEAP_MB, entryWorkerOptions } from '../../build/write/entries.ts';
import type { EntryContextData } from '../../build/write/entry-rows.ts';

const CONTEXT: EntryContextData = {
  stagePath: '/nonexistent/stage.sqlite',
  languageNames: [['ig', 'Igbo']],
  sources: [],
  ranks: [['ig', 'mmiri', 1]],
  treebankExamples: [],
  keysWithVariants: ['mmiri'],
};

// What V8 applies inside a thread started with those options (a real thread, not the options object).
const REPORT_LIMITS = `
const { parentPort, resourceLimits, workerData } = require('node:worker_threads');
const { getHeapStatistics } = require('node:v8');
parentPort.postMessage({ resourceLimits, heapLimitMb: getHeapStatistics().heap_size_limit / 1024 ** 2, ranks: workerData.ranks });
`;

describe('build entry workers', () => {
  it('build entry workers - start with their context and a heap bounded to ENTRY_WORKER_HEAP_MB', async () => {
    const worker = new Worker(REPORT_LIMITS, { ...entryWorkerOptions(CONTEXT), eval: true });
    try {
      const [report] = (await once(worker, 'message')) as [{ resourceLimits: { maxOldGenerationSizeMb: number }; heapLimitMb: number; ranks: unknown }];
      assert.equal(report.resourceLimits.maxOldGenerationSizeMb, ENTRY_WORKER_HEAP_MB);
      // The whole heap limit adds the young generation and code space to the old generation, but stays of
      // the same order, unlike this machine's default of several GB.
      assert.ok(report.heapLimitMb < 2 * ENTRY_WORKER_HEAP_MB, `heap limit ${report.heapLimitMb} MB`);
      assert.deepEqual(report.ranks, CONTEXT.ranks);
    } finally {
      await worker.terminate();
    }
  });
});
