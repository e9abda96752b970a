// Graceful shutdown: SIGTERM makes a worker stop accepting, finish what it is doing, return its leases and
// exit 0, while the other worker on the port keeps serving.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { show, startApi } from './support.ts';

import type { Api } from './support.ts';

let api: Api;
before(async () => {
  api = await startApi({ workers: 2 });
});
after(async () => {
  await api?.stack.stop();
});

describe('API worker shutdown', () => {
  test('API worker shutdown - SIGTERM under load: exit 0, no failed request on open connections, the port keeps serving', async () => {
    // A team key: the load would use up a free key's 1,000 daily requests.
    const { apiKey } = await api.stack.keyOnPlan('team');
    let stop = false;
    let failures = 0;
    const statuses: number[] = [];
    const load = Promise.all(
      Array.from({ length: 4 }, async () => {
        while (!stop) {
          const res = await fetch(`${api.stack.baseUrl}/api/v1/words?q=omi`, { headers: { 'x-api-key': apiKey } }).catch(
            () => undefined,
          );
          if (!res) failures++;
          else {
            statuses.push(res.status);
            await res.arrayBuffer();
          }
        }
      }),
    );
    await new Promise((r) => setTimeout(r, 300));
    const code = await api.stack.signalWorker(0, 'SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    stop = true;
    await load;
    assert.equal(code, 0);
    assert.ok(api.stack.logs().includes('"msg":"stopped"'), api.stack.logs().slice(-2000));
    assert.ok(statuses.length > 0 && statuses.every((s) => s === 200), JSON.stringify([...new Set(statuses)]));
    assert.equal(failures, 0, 'no request failed at the connection level');
    const reply = await api.call('/api/v1/languages', { key: api.key });
    assert.equal(reply.status, 200, show(reply));
  });
});
