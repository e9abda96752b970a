// Request framing over raw sockets against the real stack with two workers, connections from many loopback
// addresses (spread over both SO_REUSEPORT listeners): framing that two readers could disagree on is answered
// 400 (or 501) and the connection closed, no worker dies, and nothing is counted for a refused request.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { exchange, header, loopbackAddress } from '../support/raw-http.ts';
import { startStack } from '../support/stack.ts';

import type { Exchange } from '../support/raw-http.ts';
import type { Stack } from '../support/stack.ts';

/** Connections per case: from as many addresses, so that both workers get some. */
const SPREAD = 12;

let stack: Stack;
before(async () => {
  stack = await startStack({ workers: 2 });
});
after(async () => {
  await stack?.stop();
});

const show = (x: Exchange): string =>
  JSON.stringify({ closed: x.closed, replies: x.replies.map((r) => ({ ...r, body: r.body.toString() })), rest: x.rest.slice(0, 300) });

function assertRefused(x: Exchange, status: number, code: string): void {
  assert.equal(x.replies.length, 1, show(x));
  const [reply] = x.replies;
  assert.equal(reply.status, status, show(x));
  assert.equal((JSON.parse(reply.body.toString()) as { error: { code: string } }).error.code, code, show(x));
  assert.equal(header(reply, 'connection'), 'close', show(x));
  assert.ok(x.closed, `the connection stays open: ${show(x)}`);
}

/** Workers that logged a request of `route` (the log lines carry the worker's name). */
function workersLogging(route: string): Set<string> {
  const names = new Set<string>();
  for (const line of stack.logs().split('\n')) {
    if (!line.includes(`"route":"${route}"`)) continue;
    const worker = /"worker":"([^"]+)"/.exec(line)?.[1];
    if (worker) names.add(worker);
  }
  return names;
}

const TWO_LENGTHS = (path: string, type: string) =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: 40\r\nContent-Length: 2\r\n\r\n${'0'.repeat(40)}`;

describe('request framing', () => {
  test('request framing - two Content-Length lines, the first longer, are 400 and close on both sign-up routes; every worker lives', async () => {
    const pids = stack.workers();
    const requests = [
      TWO_LENGTHS('/api/v1/developers', 'application/json'),
      TWO_LENGTHS('/developers', 'application/x-www-form-urlencoded'),
    ];
    const outcomes = await Promise.all(
      Array.from({ length: SPREAD }, (_, i) => exchange(stack.port, requests[i % 2], { localAddress: loopbackAddress(), untilClosed: true })),
    );
    for (const x of outcomes) assertRefused(x, 400, 'bad_request');
    // Both workers answered some of them, and neither died doing so.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(stack.workers(), pids.map((w) => ({ ...w, running: true })));
    assert.equal(workersLogging('framing').size, 2, 'both workers refused some');
    const health = await exchange(stack.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', { localAddress: loopbackAddress() });
    assert.equal(health.replies[0]?.status, 200, show(health));
  });

  const table: [string, string, number, string][] = [
    ['two Host lines', 'POST /api/v1/developers HTTP/1.1\r\nHost: x\r\nHost: y\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}', 400, 'bad_request'],
    ['Content-Length twice, equal', 'POST /api/v1/developers HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}', 400, 'bad_request'],
    ['Transfer-Encoding not ending in chunked', 'POST /api/v1/developers HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip\r\n\r\n', 400, 'bad_request'],
    ['chunked twice', 'POST /api/v1/developers HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n', 400, 'bad_request'],
    ['Transfer-Encoding on two lines', 'POST /developers HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400, 'bad_request'],
    ['a coding before chunked', 'POST /api/v1/developers HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n', 501, 'not_implemented'],
    ['a body on an unknown path, two lengths', 'POST /api/v1/nope HTTP/1.1\r\nHost: x\r\nContent-Length: 9\r\nContent-Length: 1\r\n\r\n123456789', 400, 'bad_request'],
  ];
  for (const [name, bytes, status, code] of table) {
    test(`request framing - ${name}: ${status} ${code}, and the connection closes`, async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 4 }, () => exchange(stack.port, bytes, { localAddress: loopbackAddress(), untilClosed: true })),
      );
      for (const x of outcomes) assertRefused(x, status, code);
    });
  }

  test('request framing - a metered GET with two Content-Length lines is refused before admission: nothing counted', async () => {
    const { apiKey } = await stack.register();
    const hostile = `GET /api/v1/stats HTTP/1.1\r\nHost: x\r\nX-API-Key: ${apiKey}\r\nContent-Length: 4\r\nContent-Length: 2\r\n\r\nabcd`;
    const refused = await Promise.all(
      Array.from({ length: 6 }, () => exchange(stack.port, hostile, { localAddress: loopbackAddress(), untilClosed: true })),
    );
    for (const x of refused) {
      assertRefused(x, 400, 'bad_request');
      assert.equal(header(x.replies[0], 'x-ratelimit-used'), undefined, 'no admission, no rate-limit headers');
    }
    const first = await exchange(stack.port, `GET /api/v1/stats HTTP/1.1\r\nHost: x\r\nX-API-Key: ${apiKey}\r\n\r\n`, {
      localAddress: loopbackAddress(),
    });
    assert.equal(header(first.replies[0], 'x-ratelimit-used'), '1', show(first));
  });

  test('request framing - chunked bodies are read on both sign-up routes; over 16 KiB is refused while it arrives', async () => {
    const json = JSON.stringify({ name: 'Chunked Ada', email: `chunked-${process.pid}-${Date.now()}@example.org` });
    const chunked = (text: string) =>
      text.match(/.{1,7}/gs)!.map((piece) => `${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`).join('') + '0\r\n\r\n';
    const api = await exchange(
      stack.port,
      'POST /api/v1/developers HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Forwarded-For: 10.77.0.1\r\n' +
        `Transfer-Encoding: chunked\r\n\r\n${chunked(json)}`,
      { localAddress: loopbackAddress() },
    );
    assert.equal(api.replies[0]?.status, 201, show(api));
    const form = `name=Chunked+Form&email=chunked-form-${process.pid}-${Date.now()}%40example.org`;
    const page = await exchange(
      stack.port,
      'POST /developers HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nX-Forwarded-For: 10.77.0.2\r\n' +
        `Transfer-Encoding: chunked\r\n\r\n${chunked(form)}`,
      { localAddress: loopbackAddress() },
    );
    assert.equal(page.replies[0]?.status, 201, show(page));
    assert.match(page.replies[0].body.toString(), /svc_live_[0-9a-f]{40}/);

    // 17 KiB in 1 KiB chunks, the end never sent: the answer comes once the cap is passed.
    const big = `${'400\r\n' + 'a'.repeat(1024) + '\r\n'}`.repeat(17);
    const tooBig = await exchange(
      stack.port,
      `POST /api/v1/developers HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${big}`,
      { localAddress: loopbackAddress() },
    );
    assert.equal(tooBig.replies[0]?.status, 400, show(tooBig));
    assert.match(tooBig.replies[0].body.toString(), /at most 16384 bytes/);
    const tooBigForm = await exchange(
      stack.port,
      `POST /developers HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n${big}`,
      { localAddress: loopbackAddress() },
    );
    assert.equal(tooBigForm.replies[0]?.status, 413, show(tooBigForm));
  });

  test('request framing - a body on a path that takes none is not read: the answer comes at once, in the error shape', async () => {
    const x = await exchange(
      stack.port,
      `POST /api/v1/stats HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n${'a'.repeat(1000)}`,
      { localAddress: loopbackAddress() },
    );
    assert.equal(x.replies[0]?.status, 404, show(x));
    assert.equal((JSON.parse(x.replies[0].body.toString()) as { error: { code: string } }).error.code, 'not_found');
  });
});
