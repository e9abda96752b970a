// The worker's JSON-lines logger: lines batched into one write, in order, flushed early when large.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';

import { createLogger } from '../../services/api/log.ts';

function sink(): { stream: Writable; chunks: string[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  return { stream, chunks };
}

const parse = (chunks: string[]) => chunks.join('').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

test('request and info lines wait for one write, in order, each a JSON object with the fixed fields', () => {
  const out = sink();
  const log = createLogger({ service: 'api', worker: 'api-0' }, out.stream, sink().stream);
  log.request?.('GET', 'GET /api/v1/words/:id', 200, 0.05, 'svc_live_0123abcd');
  log.info({ msg: 'ọ̀rọ̀ started', port: 1 });
  log.request?.('GET', 'GET /api/v1/stats', 401, 0.01);
  assert.equal(out.chunks.length, 0);
  log.flush();
  assert.equal(out.chunks.length, 1);
  const lines = parse(out.chunks);
  assert.deepEqual(
    lines.map((l) => [l.service, l.worker, l.msg, l.route, l.status, l.keyPrefix]),
    [
      ['api', 'api-0', 'request', 'GET /api/v1/words/:id', 200, 'svc_live_0123abcd'],
      ['api', 'api-0', 'ọ̀rọ̀ started', undefined, undefined, undefined],
      ['api', 'api-0', 'request', 'GET /api/v1/stats', 401, undefined],
    ],
  );
  log.flush();
  assert.equal(out.chunks.length, 1, 'nothing left to write');
});

test('an error writes the waiting lines first, then itself to the error stream', () => {
  const out = sink();
  const err = sink();
  const log = createLogger({ service: 'api' }, out.stream, err.stream);
  log.info({ msg: 'before' });
  log.error({ msg: 'failed' });
  assert.deepEqual(parse(out.chunks).map((l) => l.msg), ['before']);
  assert.deepEqual(parse(err.chunks).map((l) => [l.level, l.msg]), [['error', 'failed']]);
});

test('64 KiB of waiting lines are written at once, without waiting for the timer', () => {
  const out = sink();
  const log = createLogger({ service: 'api' }, out.stream, sink().stream);
  let written = 0;
  for (let i = 0; out.chunks.length === 0; i++) {
    assert.ok(i < 2_000, 'no early write');
    log.request?.('GET', 'GET /api/v1/languages', 200, i);
    written++;
  }
  assert.ok(out.chunks[0].length >= 64 * 1024);
  assert.equal(parse(out.chunks).length, written);
  log.flush();
});
