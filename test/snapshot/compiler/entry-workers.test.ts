// The entry step's worker threads start with a bounded heap (snapshot/compiler/write/entries.ts ENTRY_WORKER_HEAP_MB):
// unbounded, V8 lets each grow far past what it holds, and the two make most of a large build's peak memory.
// They hand a batch's bodies to the writer as UTF-8 in one transferred buffer (packBodies).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { MessageChannel, Worker } from 'node:worker_threads';
import { describe, it } from 'node:test';

import { ENTRY_WORKER_HEAP_MB, entryWorkerOptions } from '../../../snapshot/compiler/write/entries.ts';
import { packBodies } from '../../../snapshot/compiler/write/entry-rows.ts';
import type { AssembledRows, EntryContextData } from '../../../snapshot/compiler/write/entry-rows.ts';

const CONTEXT: EntryContextData = {
  stagePath: '/nonexistent/stage.sqlite',
  languageNames: [['ig', 'Igbo']],
  sources: [],
  ranks: [['ig\u0001mmilī\u0001noun\u0001', 1]],
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

  it('build entry workers - a batch\'s bodies arrive as their UTF-8 bytes, in one buffer moved to the writer', async () => {
    const texts = ['{"exactForm":"ụ́lọ̀"}', '{"exactForm":"ɓaƙo","note":"ʼ"}', '{}', '{"exactForm":"ሰላም"}'];
    const assembled = texts.map((body, i): AssembledRows => ({
      facts: { globalRank: i + 1, id: i + 1, language: 'ig', partOfSpeech: 'noun', isCommon: false, frequencyRank: null, glossCount: 0, exampleCount: 0, pronunciationCount: 0, classroomFit: true },
      slug: `w${i}`, folded: `w${i}`, summary: '{}', body,
      forms: [], head: '', vars: '', tags: '', gloss: null, otherForms: [], source: 'src', contributors: [],
    }));
    const { rows, buffer } = packBodies(assembled);
    assert.equal(buffer.byteLength, texts.reduce((n, t) => n + Buffer.byteLength(t), 0), 'one buffer of exactly the bodies, not a pool slab');
    const { port1, port2 } = new MessageChannel();
    try {
      port1.postMessage({ rows }, [buffer]);
      const [{ rows: received }] = (await once(port2, 'message')) as [{ rows: { body: Uint8Array; slug: string }[] }];
      assert.equal(buffer.byteLength, 0, 'transferred, not copied');
      assert.deepEqual(received.map((r) => Buffer.from(r.body).toString('utf8')), texts);
      assert.deepEqual(received.map((r) => r.slug), ['w0', 'w1', 'w2', 'w3']);
    } finally {
      port1.close();
    }
  });
});
