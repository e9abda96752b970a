// X-RateLimit-Used and -Remaining through the real stack with two workers: a client sending one request at a
// time, each on a new connection from another loopback address (so both workers answer), sees Used rise by one
// and Remaining fall by one per request on every metered endpoint, including after a burst has ended.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { VOLUME_WINDOW_MS } from '../../services/api/metering-client/endpoint-lease.ts';
import { SWEEP_INTERVAL_MS } from '../../services/api/metering-client/sweeper.ts';
import { exchange, header, loopbackAddress } from '../support/raw-http.ts';
import { startStack } from '../support/stack.ts';

import type { Stack } from '../support/stack.ts';

const PATHS = ['/api/v1/words?q=omi', '/api/v1/words/1', '/api/v1/word-of-the-day?language=ig', '/api/v1/languages', '/api/v1/stats'];
const SEQUENTIAL = 24;

let stack: Stack;
before(async () => {
  stack = await startStack({ workers: 2 });
});
after(async () => {
  await stack?.stop();
});

/** One GET on a new connection from a new loopback address: [Used, Remaining]. */
async function once(path: string, apiKey: string): Promise<[number, number]> {
  const x = await exchange(stack.port, `GET ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${apiKey}\r\n\r\n`, { localAddress: loopbackAddress() });
  const reply = x.replies[0];
  // A 404 of a metered route carries the headers too (spec, Errors 2): each request counts either way.
  assert.ok(reply?.status === 200 || reply?.status === 404, JSON.stringify(x));
  return [Number(header(reply, 'x-ratelimit-used')), Number(header(reply, 'x-ratelimit-remaining'))];
}

/** The workers whose request log names this key. */
function workersServing(keyPrefix: string): Set<string> {
  const names = new Set<string>();
  for (const line of stack.logs().split('\n')) {
    if (!line.includes(`"keyPrefix":"${keyPrefix}"`)) continue;
    const worker = /"worker":"([^"]+)"/.exec(line)?.[1];
    if (worker) names.add(worker);
  }
  return names;
}

describe('X-RateLimit headers', () => {
  for (const path of PATHS) {
    test(`X-RateLimit headers - ${path}: one request at a time, Used rises by one and Remaining falls by one, whichever worker answers`, async () => {
      const { apiKey, keyPrefix } = await stack.register();
      const seen: [number, number][] = [];
      for (let i = 0; i < SEQUENTIAL; i++) seen.push(await once(path, apiKey));
      assert.deepEqual(seen, Array.from({ length: SEQUENTIAL }, (_, i) => [i + 1, 999 - i]));
      await sleep(100);
      assert.equal(workersServing(keyPrefix).size, 2, 'both workers answered some of them');
    });
  }

  test('X-RateLimit headers - after a burst over both workers, one request at a time is exact again within a second', async () => {
    const { apiKey } = await stack.register();
    const burst = await Promise.all(Array.from({ length: 40 }, () => once('/api/v1/stats', apiKey)));
    assert.equal(burst.length, 40);
    // The workers give their blocks back once no two of the key's requests have met for VOLUME_WINDOW_MS.
    await sleep(VOLUME_WINDOW_MS + 2 * SWEEP_INTERVAL_MS + 300);
    const seen: number[] = [];
    for (let i = 0; i < 10; i++) seen.push((await once('/api/v1/stats', apiKey))[0]);
    assert.deepEqual(seen, Array.from({ length: 10 }, (_, i) => 41 + i));
  });
});
