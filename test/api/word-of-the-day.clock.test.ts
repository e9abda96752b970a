// GET /api/v1/word-of-the-day with an injected clock (in-process app, real snapshot and metering): the day
// turns at 00:00 UTC exactly.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { startInProcessStack } from '../support/stack.ts';

import type { WordOfTheDay } from '../../services/shared/schemas.ts';
import type { InProcessStack } from '../support/stack.ts';

let clock = 0;
let stack: InProcessStack;
let key = '';
before(async () => {
  const tomorrow = new Date();
  tomorrow.setUTCHours(24, 0, 0, 0);
  clock = tomorrow.getTime() - 1;
  stack = await startInProcessStack({ now: () => clock });
  key = (await stack.register()).apiKey;
});
after(async () => {
  await stack?.stop();
});

const get = async () => {
  const res = await fetch(`${stack.baseUrl}/api/v1/word-of-the-day?language=ig`, { headers: { 'x-api-key': key } });
  assert.equal(res.status, 200);
  return { body: (await res.json()) as WordOfTheDay, cacheControl: res.headers.get('cache-control') };
};

describe('word of the day clock', () => {
  test('word of the day clock - 23:59:59.999 UTC is still today, cached for 1 s; 00:00 UTC is the next day', async () => {
    const before = await get();
    assert.equal(before.body.date, new Date(clock).toISOString().slice(0, 10));
    assert.equal(before.cacheControl, 'public, max-age=1, s-maxage=1');
    clock += 1;
    const after = await get();
    assert.equal(after.body.date, new Date(clock).toISOString().slice(0, 10));
    assert.notEqual(after.body.date, before.body.date);
    assert.equal(after.cacheControl, 'public, max-age=86400, s-maxage=86400');
  });
});
