// A real nginx running docs/nginx.conf in front of the stack with two workers: the HTTP rules the workers' uWS
// cannot keep at our layer (SECURITY.md) are kept by the proxy, in the API's error shape, and what uWS does with
// the same requests without it is shown alongside.
import assert from 'node:assert/strict';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';

import { startNginx } from '../support/nginx.ts';
import { exchange, header, loopbackAddress } from '../support/raw-http.ts';
import { startStack } from '../support/stack.ts';

import type { Nginx } from '../support/nginx.ts';
import type { Exchange } from '../support/raw-http.ts';
import type { Stack } from '../support/stack.ts';

let stack: Stack;
let nginx: Nginx;
let apiKey: string;
before(async () => {
  stack = await startStack({ workers: 2 });
  nginx = await startNginx(stack.port);
  apiKey = (await stack.register()).apiKey;
});
after(async () => {
  await nginx?.stop();
  await stack?.stop();
});

const show = (x: Exchange): string =>
  JSON.stringify({ closed: x.closed, replies: x.replies.map((r) => ({ ...r, body: r.body.toString().slice(0, 300) })), rest: x.rest.slice(0, 200) });
const codeOf = (x: Exchange): string | undefined =>
  (JSON.parse(x.replies[0]?.body.toString() || '{}') as { error?: { code: string } }).error?.code;

/** Each case below sits under our code: uWS (this build) answers it wrongly or not at all. */
const BELOW_OUR_LAYER = (key: string): [string, string, number, string | undefined][] => [
  ['HTTP/1.0', `GET /api/v1/stats HTTP/1.0\r\nX-API-Key: ${key}\r\n\r\n`, 200, undefined],
  ['HTTP/2.0 in an HTTP/1 request line', 'GET /api/v1/stats HTTP/2.0\r\nHost: x\r\n\r\n', 505, 'http_version_not_supported'],
  ['an unknown method', 'BREW /api/v1/stats HTTP/1.1\r\nHost: x\r\n\r\n', 501, 'not_implemented'],
  ['a lower-case method', 'get /api/v1/stats HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'bad_request'],
  ['an absolute-form target', `GET http://x/api/v1/stats HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\n\r\n`, 200, undefined],
  ['no Host', `GET /api/v1/stats HTTP/1.1\r\nX-API-Key: ${key}\r\n\r\n`, 400, 'bad_request'],
  ['Content-Length -5', 'POST /api/v1/developers HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n', 400, 'bad_request'],
  ['Content-Length abc', 'POST /api/v1/developers HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', 400, 'bad_request'],
  ['Content-Length +5', 'POST /api/v1/developers HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\nhello', 400, 'bad_request'],
  ['Content-Length 0, 5', 'POST /api/v1/developers HTTP/1.1\r\nHost: x\r\nContent-Length: 0, 5\r\n\r\n', 400, 'bad_request'],
  ['Transfer-Encoding with Content-Length', 'POST /api/v1/developers HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n', 400, 'bad_request'],
  ['60 header fields', `GET /api/v1/stats HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\n${Array.from({ length: 60 }, (_, i) => `X-H${i}: v\r\n`).join('')}\r\n`, 200, undefined],
  ['a chunk extension', 'POST /api/v1/developers HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2;x=1\r\n{}\r\n0\r\n\r\n', 400, 'invalid_parameter'],
];

describe('nginx in front (docs/nginx.conf)', () => {
  for (const [name, , status, code] of BELOW_OUR_LAYER('')) {
    test(`nginx in front - ${name}: ${status}${code ? ` ${code}` : ''}`, async () => {
      const bytes = BELOW_OUR_LAYER(apiKey).find(([n]) => n === name)![1];
      const x = await exchange(nginx.port, bytes, { localAddress: loopbackAddress() });
      assert.equal(x.replies[0]?.status, status, show(x));
      assert.equal(codeOf(x), code, show(x));
    });
  }

  test('nginx in front - a head over its buffers is 431 in the error shape', async () => {
    const x = await exchange(nginx.port, `GET /api/v1/stats HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(9000)}\r\n\r\n`);
    assert.equal(x.replies[0]?.status, 431, show(x));
    assert.equal(codeOf(x), 'request_header_fields_too_large');
  });

  test('nginx in front - two pipelined requests whose first waits for the metering service are answered in order', async () => {
    for (let i = 0; i < 4; i++) {
      const { apiKey: fresh } = await stack.register();
      const bytes = ['/api/v1/stats', '/api/v1/languages', '/api/v1/stats']
        .map((path) => `GET ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${fresh}\r\n\r\n`)
        .join('');
      const x = await exchange(nginx.port, bytes, { localAddress: loopbackAddress(), expected: 3 });
      assert.deepEqual(
        x.replies.map((r) => [r.status, header(r, 'x-ratelimit-used'), r.body.toString().startsWith('{"totals"')]),
        [[200, '1', true], [200, '1', false], [200, '2', true]],
        show(x),
      );
    }
  });

  test('nginx in front - a body over 16 KiB is refused as the API refuses it', async () => {
    const x = await exchange(
      nginx.port,
      `POST /api/v1/developers HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 20000\r\n\r\n${'a'.repeat(20000)}`,
    );
    assert.equal(x.replies[0]?.status, 400, show(x));
    assert.equal(codeOf(x), 'invalid_parameter');
  });

  test('nginx in front - the key-creation throttle counts the client address nginx forwards (TRUST_PROXY)', async () => {
    const from = loopbackAddress();
    const register = (address: string, i: number) =>
      exchange(
        nginx.port,
        'POST /api/v1/developers HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Forwarded-For: 10.1.2.3\r\n' +
          `Content-Length: ${JSON.stringify({ name: 'P', email: `proxy-${i}-${Date.now()}@example.org` }).length}\r\n\r\n` +
          JSON.stringify({ name: 'P', email: `proxy-${i}-${Date.now()}@example.org` }),
        { localAddress: address },
      );
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await register(from, i)).replies[0]?.status ?? 0);
    // The forged X-Forwarded-For is replaced by nginx: the sixth from one address is refused, another address is not.
    assert.deepEqual(statuses, [201, 201, 201, 201, 201, 429]);
    assert.equal((await register(loopbackAddress(), 6)).replies[0]?.status, 201);
  });

  test('nginx in front - a cross-site sign-up form is refused with 403, as straight to the workers (Origin and Sec-Fetch-Site forwarded)', async () => {
    const form = `name=Cross&email=cross-${Date.now()}%40example.org`;
    const post = (port: number, site: string[]) =>
      exchange(
        port,
        'POST /developers HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n' +
          site.map((h) => `${h}\r\n`).join('') +
          `Content-Length: ${form.length}\r\n\r\n${form}`,
        { localAddress: loopbackAddress() },
      );
    for (const site of [['Sec-Fetch-Site: cross-site', 'Origin: https://elsewhere.example'], ['Origin: https://elsewhere.example']]) {
      const direct = await post(stack.port, site);
      const proxied = await post(nginx.port, site);
      assert.equal(direct.replies[0]?.status, 403, show(direct));
      assert.equal(proxied.replies[0]?.status, 403, show(proxied));
    }
    // The site's own form, through the proxy, still gets its key page.
    const own = await post(nginx.port, ['Sec-Fetch-Site: same-origin', 'Origin: http://x']);
    assert.equal(own.replies[0]?.status, 201, show(own));
  });

  test('nginx in front - a cross-site call of POST /api/v1/developers is refused naming Origin', async () => {
    const body = JSON.stringify({ name: 'Cross', email: `cross-api-${Date.now()}@example.org` });
    const x = await exchange(
      nginx.port,
      'POST /api/v1/developers HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nSec-Fetch-Site: cross-site\r\nOrigin: https://elsewhere.example\r\n' +
        `Content-Length: ${body.length}\r\n\r\n${body}`,
      { localAddress: loopbackAddress() },
    );
    assert.equal(x.replies[0]?.status, 400, show(x));
    assert.match(x.replies[0]?.body.toString() ?? '', /'Origin'/);
  });

  test('nginx in front - website pages over the allowance get the 429 page with Retry-After; files are not counted', async () => {
    const from = loopbackAddress();
    const page = () => exchange(nginx.port, 'GET /about HTTP/1.1\r\nHost: x\r\n\r\n', { localAddress: from });
    const replies = await Promise.all(Array.from({ length: 90 }, page));
    const refused = replies.filter((x) => x.replies[0]?.status === 429);
    assert.ok(refused.length >= 90 - 61 - 5, `429s: ${refused.length} of 90`);
    const first = refused[0].replies[0];
    assert.equal(header(first, 'retry-after'), '1', show(refused[0]));
    assert.match(header(first, 'content-type') ?? '', /^text\/html/);
    assert.match(first.body.toString(), /Too many pages/);
    assert.match(nginx.errors(), /limiting requests/, 'nginx refused them, not only the workers');
    // The stylesheet is fetched with every first visit: it stays outside the allowance.
    const css = await exchange(nginx.port, 'GET /assets/site.css HTTP/1.1\r\nHost: x\r\n\r\n', { localAddress: from });
    assert.equal(css.replies[0]?.status, 200, show(css));
  });

  test('nginx in front - a flood of key requests is cut per address with the API\'s rate_limited and Retry-After 900', async () => {
    const from = loopbackAddress();
    const body = JSON.stringify({ name: 'N' });
    const post = () =>
      exchange(nginx.port, `POST /api/v1/developers HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`, {
        localAddress: from,
      });
    const replies = await Promise.all(Array.from({ length: 30 }, post));
    // The body lacks an email: what reaches a worker is 400; what nginx cuts is 429.
    const cut = replies.filter((x) => x.replies[0]?.status === 429);
    assert.ok(cut.length >= 30 - 11 - 2, `429s: ${cut.length} of 30: ${replies.map((x) => x.replies[0]?.status).join(',')}`);
    assert.equal(header(cut[0].replies[0], 'retry-after'), '900');
    assert.equal(codeOf(cut[0]), 'rate_limited');
  });

  test('nginx in front - a flood of /healthz from one address is cut with rate_limited; another address is answered', async () => {
    const from = loopbackAddress();
    const health = (address: string) => exchange(nginx.port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', { localAddress: address });
    const replies = await Promise.all(Array.from({ length: 60 }, () => health(from)));
    const cut = replies.filter((x) => x.replies[0]?.status === 429);
    // 20 of burst and a few of the 10 a second while they arrive reach the workers; the rest are nginx's.
    assert.ok(cut.length >= 60 - 21 - 5, `429s: ${cut.length} of 60: ${replies.map((x) => x.replies[0]?.status).join(',')}`);
    assert.equal(codeOf(cut[0]), 'rate_limited', show(cut[0]));
    assert.match(cut[0].replies[0].body.toString(), /health checks/);
    assert.equal(header(cut[0].replies[0], 'retry-after'), '1');
    assert.equal((await health(loopbackAddress())).replies[0]?.status, 200);
  });

  test('nginx in front - an address with 32 requests in progress has the next refused, whatever its key; another address is answered', async (t) => {
    const from = loopbackAddress();
    // Requests that wait for a body that never comes: each holds one of the address's 32 until its socket closes.
    const held = await Promise.all(Array.from({ length: 32 }, () => holdRequest(nginx.port, from)));
    t.after(() => held.forEach((s) => s.destroy()));
    const get = (address: string, key: string) =>
      exchange(nginx.port, `GET /api/v1/languages HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\n\r\n`, { localAddress: address });
    // nginx counts a held request once it has read its head: the next one is refused as soon as all 32 are read.
    let refused = await get(from, apiKey);
    await waitFor(async () => (refused = await get(from, apiKey)).replies[0]?.status === 429);
    assert.equal(refused.replies[0]?.status, 429, show(refused));
    assert.equal(codeOf(refused), 'rate_limited');
    assert.match(refused.replies[0].body.toString(), /at most 32 in progress/);
    assert.equal(header(refused.replies[0], 'retry-after'), '1');
    const random = await get(from, `svc_live_${'0'.repeat(40)}`);
    assert.equal(random.replies[0]?.status, 429, show(random));
    assert.equal((await get(loopbackAddress(), apiKey)).replies[0]?.status, 200);
    assert.match(nginx.errors(), /limiting connections/, 'nginx refused it, not a worker');
    // Once they are answered or gone, the address is served again.
    held.forEach((s) => s.destroy());
    await waitFor(async () => (await get(from, apiKey)).replies[0]?.status === 200);
  });

  test('nginx in front - without it, uWS leaves these requests unanswered or cut (what SECURITY.md lists)', async () => {
    const cases = BELOW_OUR_LAYER(apiKey).filter(([name]) => name !== 'a chunk extension');
    const outcomes = await Promise.all(
      cases.map(async ([name, bytes]) => {
        const x = await exchange(stack.port, bytes, { localAddress: loopbackAddress(), waitMs: 1_500 });
        return { name, answered: x.replies.length > 0 };
      }),
    );
    assert.deepEqual(outcomes.filter((o) => o.answered), [], 'uWS answers one of these now: review SECURITY.md and docs/reverse-proxy.md');
  });
});

/** A connection from `localAddress` that sends a request head announcing a body and then nothing: in progress. */
function holdRequest(port: number, localAddress: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress }, () => {
      socket.write('POST /api/v1/stats HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n');
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await sleep(50);
  }
}
