// The worker's logger: request lines batched into one write, the REQUEST_LOG modes, and the bound on what may
// wait in memory when the log reader stops (lines dropped and counted, errors kept, a report once drained).
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';

import { createApiLogger } from '../../services/api/log.ts';

import type { RequestLogConfig } from '../../services/api/config.ts';

const ALL: RequestLogConfig = { mode: 'all', sampleEvery: 1 };

/** A stream that takes every write at once, or, once `stall()` is called, none until `resume()`. */
function sink(): { stream: Writable; chunks: string[]; stall(): void; resume(): void } {
  const chunks: string[] = [];
  let stalled = false;
  const waiting: Array<() => void> = [];
  // Under the bounds the stall test uses, as the 1 MiB bound is over a pipe's 16 KiB: 'drain' then follows.
  const stream = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      if (stalled) waiting.push(done);
      else done();
    },
  });
  return {
    stream,
    chunks,
    stall: () => {
      stalled = true;
    },
    resume: () => {
      stalled = false;
      for (const done of waiting.splice(0)) done();
    },
  };
}

const parse = (chunks: string[]) => chunks.join('').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

describe('api logger', () => {
  it('api logger - request and info lines wait for one write, in order, each a JSON object with the fixed fields', () => {
    const out = sink();
    const log = createApiLogger({ service: 'api', worker: 'api-0' }, ALL, { out: out.stream, err: sink().stream });
    log.request?.('GET', 'GET /api/v1/words/:id', 200, 0.05, 'svc_live_0123abcd');
    log.info({ msg: 'ọ̀rọ̀ started', port: 1 });
    log.request?.('GET', 'GET /api/v1/stats', 401, 0.01);
    log.flush();
    const lines = parse(out.chunks);
    assert.deepEqual(
      lines.map((l) => [l.service, l.worker, l.level, l.msg, l.route, l.status, l.keyPrefix]),
      [
        ['api', 'api-0', 'info', 'request', 'GET /api/v1/words/:id', 200, 'svc_live_0123abcd'],
        ['api', 'api-0', 'info', 'ọ̀rọ̀ started', undefined, undefined, undefined],
        ['api', 'api-0', 'info', 'request', 'GET /api/v1/stats', 401, undefined],
      ],
      out.chunks.join(''),
    );
    assert.equal(out.chunks.length, 3, 'the waiting request line, the info line, the last request line at the flush');
    for (const line of lines) assert.match(String(line.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('api logger - an error writes the waiting lines first, then itself to the error stream', () => {
    const out = sink();
    const err = sink();
    const log = createApiLogger({ service: 'api' }, ALL, { out: out.stream, err: err.stream });
    log.request?.('GET', 'GET /api/v1/stats', 200, 1);
    log.error({ msg: 'failed', stack: 'Error: x\n    at y' });
    assert.deepEqual(parse(out.chunks).map((l) => l.msg), ['request']);
    assert.deepEqual(parse(err.chunks).map((l) => [l.level, l.msg, l.stack]), [['error', 'failed', 'Error: x\n    at y']]);
  });

  it('api logger - 64 KiB of waiting lines are written at once, without waiting for the timer', () => {
    const out = sink();
    const log = createApiLogger({ service: 'api' }, ALL, { out: out.stream, err: sink().stream });
    let written = 0;
    for (let i = 0; out.chunks.length === 0; i++) {
      assert.ok(i < 2_000, 'no early write');
      log.request?.('GET', 'GET /api/v1/languages', 200, i);
      written++;
    }
    assert.ok(out.chunks[0].length >= 64 * 1024);
    assert.equal(parse(out.chunks).length, written);
  });

  it('api logger - REQUEST_LOG errors writes server errors only; sample one in N and every server error', () => {
    const statuses = [200, 404, 500, 200, 200, 503, 429, 200, 200, 200, 200, 499];
    const logged = (config: RequestLogConfig) => {
      const out = sink();
      const log = createApiLogger({ service: 'api' }, config, { out: out.stream, err: sink().stream });
      statuses.forEach((status, i) => log.request?.('GET', `GET /r${i}`, status, 1));
      log.flush();
      return out.chunks.length === 0 ? [] : parse(out.chunks).map((l) => `${l.route} ${l.status}`);
    };
    assert.equal(logged(ALL).length, statuses.length);
    assert.deepEqual(logged({ mode: 'errors', sampleEvery: 3 }), ['GET /r2 500', 'GET /r5 503']);
    assert.deepEqual(logged({ mode: 'sample', sampleEvery: 3 }), ['GET /r2 500', 'GET /r3 200', 'GET /r5 503', 'GET /r7 200', 'GET /r10 200']);
  });

  it('api logger - while the reader does not drain, request lines beyond the bound are dropped and counted, errors kept, and a line reports the count once drained', async () => {
    const out = sink();
    const err = sink();
    const bounds = { requestQueueLimit: 10_000, otherLinesReserve: 2_000 };
    const log = createApiLogger({ service: 'api' }, ALL, { out: out.stream, err: err.stream, bounds });
    out.stall();
    err.stall();
    let requests = 0;
    for (let batch = 0; batch < 100; batch++) {
      for (let i = 0; i < 50; i++, requests++) log.request?.('GET', 'GET /api/v1/stats', 200, i);
      log.flush();
    }
    log.info({ msg: 'still here' });
    for (let i = 0; i < 300; i++) log.error({ msg: `failure ${String(i).padStart(3, '0')}` });
    // Request lines fill the stream up to the bound, other lines up to the reserve beyond it.
    assert.ok(out.stream.writableLength <= 10_000 + 2_000, `stdout holds ${out.stream.writableLength} characters`);
    assert.ok(err.stream.writableLength <= 10_000 + 2_000, `stderr holds ${err.stream.writableLength} characters`);
    const dropped = log.dropped?.() ?? { request: 0, other: 0 };
    assert.ok(dropped.request > requests / 2, JSON.stringify(dropped));
    assert.equal(dropped.other, 300 - Math.floor(12_000 / err.chunks[0].length), `error lines dropped beyond the reserve: ${JSON.stringify(dropped)}`);

    out.resume();
    err.resume();
    // 'drain' comes a tick after the last write completes.
    await new Promise((resolve) => setImmediate(resolve));
    const lines = parse(out.chunks);
    assert.equal(lines.filter((l) => l.msg === 'request').length + dropped.request, requests, JSON.stringify(dropped));
    assert.ok(lines.some((l) => l.msg === 'still here'), 'the info line used the reserve');
    assert.equal(parse(err.chunks).length + dropped.other, 300);
    const reports = lines.filter((l) => l.level === 'warn');
    assert.deepEqual(
      reports.map((l) => [l.msg, l.stream, l.requestLines, l.otherLines]),
      [
        ['log lines dropped: the log reader did not keep up', 'stdout', dropped.request, 0],
        ...(dropped.other > 0 ? [['log lines dropped: the log reader did not keep up', 'stderr', 0, dropped.other]] : []),
      ],
      JSON.stringify(reports),
    );
    log.request?.('GET', 'GET /api/v1/stats', 200, 1);
    log.flush();
    assert.equal(parse(out.chunks).at(-1)?.msg, 'request', 'request lines are written again once drained');
  });
});
