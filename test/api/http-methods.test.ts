// HTTP methods against the real stack with two workers: HEAD wherever GET is answered (RFC 9110 §9.3.2: the
// same status and header fields, no content; on a metered route counted like the GET), and 501 for the
// methods no resource answers (§15.6.2).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { exchange, header, loopbackAddress } from '../support/raw-http.ts';
import { startStack } from '../support/stack.ts';

import type { RawReply } from '../support/raw-http.ts';
import type { Stack } from '../support/stack.ts';

let stack: Stack;
before(async () => {
  stack = await startStack({ workers: 2 });
});
after(async () => {
  await stack?.stop();
});

async function send(method: string, path: string, key?: string): Promise<RawReply> {
  const keyLine = key === undefined ? '' : `X-API-Key: ${key}\r\n`;
  const x = await exchange(stack.port, `${method} ${path} HTTP/1.1\r\nHost: x\r\n${keyLine}\r\n`, {
    localAddress: loopbackAddress(),
    head: [method === 'HEAD'],
  });
  assert.equal(x.replies.length, 1, `${method} ${path}: ${JSON.stringify(x)}`);
  assert.equal(x.rest, '', `${method} ${path}: bytes after the response: ${x.rest.slice(0, 200)}`);
  return x.replies[0];
}

/** Header fields as a sorted list, without the ones that differ per response by nature. */
const fields = (reply: RawReply, skip: readonly string[] = []) =>
  reply.headers.filter(([name]) => name !== 'date' && !skip.includes(name)).map(([n, v]) => `${n}: ${v}`).sort();

/**
 * Cache-Control as its directives and the lifetimes they give. The word of the day's lifetime counts down to the
 * next UTC midnight, so a HEAD sent a second after its GET may carry one a second or two lower.
 */
function cacheControl(reply: RawReply): { directives: string; lifetimes: number[] } {
  const value = header(reply, 'cache-control') ?? '';
  const lifetimes = [...value.matchAll(/(?:max-age|s-maxage)=(\d+)/g)].map((m) => Number(m[1]));
  return { directives: value.replace(/=\d+/g, '=N'), lifetimes };
}

function assertSameCacheControl(head: RawReply, get: RawReply, message: string): void {
  const [h, g] = [cacheControl(head), cacheControl(get)];
  assert.equal(h.directives, g.directives, message);
  assert.equal(h.lifetimes.length, g.lifetimes.length, message);
  h.lifetimes.forEach((seconds, i) => assert.ok(g.lifetimes[i] - seconds >= 0 && g.lifetimes[i] - seconds <= 2, message));
}

const showBoth = (get: RawReply, head: RawReply) =>
  JSON.stringify({ get: { ...get, body: `${get.body.length} bytes` }, head: { ...head, body: head.body.toString() } });

describe('HEAD', () => {
  const pages = ['/', '/about', '/developers', '/docs', '/search?q=omi', '/api/v1/openapi.json', '/healthz', '/assets/site.css', '/nope', '/api/nope'];
  for (const path of pages) {
    test(`HEAD ${path} - the GET's status and header fields, its body's Content-Length, no body`, async () => {
      const get = await send('GET', path);
      const head = await send('HEAD', path);
      assert.equal(head.status, get.status, showBoth(get, head));
      assert.deepEqual(fields(head), fields(get), showBoth(get, head));
      assert.equal(header(head, 'content-length'), String(get.body.length), showBoth(get, head));
    });
  }

  const metered = ['/api/v1/words?q=omi', '/api/v1/words/1', '/api/v1/word-of-the-day?language=yo', '/api/v1/languages', '/api/v1/stats'];
  for (const path of metered) {
    test(`HEAD ${path} - metered: the GET's status and headers, and counted like a GET`, async () => {
      const { apiKey } = await stack.register();
      const get = await send('GET', path, apiKey);
      const head = await send('HEAD', path, apiKey);
      const again = await send('GET', path, apiKey);
      const rate = ['x-ratelimit-used', 'x-ratelimit-remaining', 'cache-control'];
      assert.equal(head.status, get.status, showBoth(get, head));
      assert.deepEqual(fields(head, rate), fields(get, rate), showBoth(get, head));
      assertSameCacheControl(head, get, showBoth(get, head));
      assert.equal(header(head, 'content-length'), String(get.body.length), showBoth(get, head));
      assert.deepEqual(
        [get, head, again].map((r) => header(r, 'x-ratelimit-used')),
        ['1', '2', '3'],
        'a HEAD is counted like the GET it stands for',
      );
    });
  }
});

describe('methods', () => {
  for (const method of ['PUT', 'DELETE', 'PATCH', 'TRACE']) {
    test(`methods - ${method} answers 501 not_implemented in the error shape`, async () => {
      for (const path of ['/api/v1/words', '/about', '/api/v1/developers']) {
        const reply = await send(method, path);
        assert.equal(reply.status, 501, `${method} ${path}: ${reply.body.toString()}`);
        const body = JSON.parse(reply.body.toString()) as { error: { code: string; message: string } };
        assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message']);
        assert.equal(body.error.code, 'not_implemented');
      }
    });
  }
});
