// Log lines of the API worker and of the metering process with text from clients in them: no control character
// reaches the terminal showing the log (C0, DEL, C1, bidi controls, line separators), and each line still parses
// to the same values.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';

import { createApiLogger } from '../../services/api/log.ts';
import { createLogger } from '../../services/shared/log/logger.ts';

const HOSTILE = 'a\u001b]0;title\u0007b\u009b31m\u007fc\u202eevil\u2066d\u2028e\u0085f\r\nforged line';
/** Raw, these would act on a terminal; inside a JSON line every one must be an escape. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

function sink(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

function checkLines(text: string): Record<string, unknown>[] {
  assert.doesNotMatch(text, RAW_CONTROL, JSON.stringify(text));
  return text.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('log lines', () => {
  test('log lines - the worker escapes control characters in info, error and request lines', () => {
    const out = sink();
    const err = sink();
    const log = createApiLogger({ service: 'api', worker: HOSTILE }, { mode: 'all', sampleEvery: 1 }, { out: out.stream, err: err.stream });
    log.info({ msg: 'website page failed', path: `/words/${HOSTILE}` });
    log.request?.(HOSTILE, 'GET /api/v1/words', 400, 0.1);
    log.request?.('GET', 'GET /api/v1/words', 200, 0.1);
    log.error({ msg: 'unhandled error', error: HOSTILE });
    log.flush();
    const lines = checkLines(out.text());
    assert.deepEqual(
      lines.map((l) => [l.worker, l.path, l.method]),
      [
        [HOSTILE, `/words/${HOSTILE}`, undefined],
        [HOSTILE, undefined, HOSTILE],
        [HOSTILE, undefined, 'GET'],
      ],
    );
    assert.deepEqual(checkLines(err.text()).map((l) => l.error), [HOSTILE]);
  });

  test('log lines - the process logger of metering escapes control characters', () => {
    const out = sink();
    const err = sink();
    const log = createLogger({ service: 'metering' }, { out: out.stream, err: err.stream });
    log.info({ msg: HOSTILE });
    log.error({ msg: 'handler failed', error: HOSTILE });
    log.flush();
    assert.deepEqual(checkLines(out.text()).map((l) => [l.msg, l.error]), [[HOSTILE, undefined]]);
    assert.deepEqual(checkLines(err.text()).map((l) => [l.msg, l.error]), [['handler failed', HOSTILE]]);
  });
});
