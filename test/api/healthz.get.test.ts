// GET /healthz: 200 with the snapshot version and metering reachability, 503 when metering is down; no key.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { RATE_HEADERS, show, startApi } from './support.ts';

import type { Api, Reply } from './support.ts';

let api: Api;
before(async () => {
  api = await startApi({ workers: 1 });
});
after(async () => {
  await api?.stack.stop();
});

interface Health {
  status: string;
  snapshot: { version: string; sample: boolean };
}

async function until(path: string, status: number): Promise<Reply> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const reply = await api.call(path);
    if (reply.status === status || Date.now() > deadline) return reply;
    await sleep(100);
  }
}

describe('GET /healthz', () => {
  test('GET /healthz - 200 ok with the snapshot version; not metered, no-store', async () => {
    const reply = await api.call('/healthz');
    assert.equal(reply.status, 200, show(reply));
    const body = reply.body as Health;
    assert.equal(body.status, 'ok');
    assert.equal(typeof body.snapshot.version, 'string');
    assert.ok(body.snapshot.version.length > 0);
    assert.deepEqual(Object.keys(body).sort(), ['snapshot', 'status'], 'the state and the snapshot only: no metering or storage detail');
    assert.equal(reply.headers.get('cache-control'), 'no-store');
    for (const name of RATE_HEADERS) assert.equal(reply.headers.get(name), null);
  });

  test('GET /healthz - 503 down while the metering process is down, 200 again once it is back', async () => {
    await api.stack.killMetering();
    const down = await until('/healthz', 503);
    assert.equal(down.status, 503, show(down));
    assert.deepEqual(down.body, { status: 'down', snapshot: (down.body as Health).snapshot });
    await api.stack.startMetering();
    const up = await until('/healthz', 200);
    assert.equal(up.status, 200, show(up));
  });
});
