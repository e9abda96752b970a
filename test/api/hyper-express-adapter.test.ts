// The adapter (services/api/http/hyper-express-adapter.ts), on bare servers: hyper-express's limits it works
// around, each still there in the version installed (a test here fails once an upgrade lifts one, and the
// workaround can go), and what the adapter does instead: bodies read by their real framing (Content-Length or
// chunked) and capped while they arrive, framing refused before any handler, an unread body left unread, HEAD
// like GET without the body, and every other request left to hyper-express's own objects.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';

import { Server } from 'hyper-express';

import { adapt, BodyTooLargeError } from '../../services/api/http/hyper-express-adapter.ts';
import { exchange } from '../support/raw-http.ts';

import type { BodyRequest, PipelineRequest, PipelineResponse } from '../../services/api/http/exchange.ts';
import type { Request, Response } from 'hyper-express';

const CAP = 32;
/** Long enough for an answer on loopback, short enough to wait for one that never comes. */
const NO_ANSWER_WAIT_MS = 500;
const FILE = Buffer.from('x'.repeat(200_000));

let adapted: Server;
let plain: Server;

type Handler = (req: PipelineRequest, res: PipelineResponse, original: Response) => unknown;

/** A route as the pipeline runs it: adapt, answer a refusal and close, or call the handler. */
const serve = (bodyLimitBytes: number | undefined, handler: Handler) => (req: Request, res: Response) => {
  const x = adapt(req, res, bodyLimitBytes);
  if (x.refused) {
    x.res.status(x.refused.status).send(JSON.stringify(x.refused.toBody()), true);
    return;
  }
  return handler(x.req, x.res, res) as void;
};

before(async () => {
  adapted = new Server({ max_body_length: Number.MAX_SAFE_INTEGER, auto_close: false });
  adapted.post(
    '/echo',
    serve(CAP, async (req, res) => {
      const body = req as BodyRequest;
      try {
        res.send(`${body.framing.body}:${(await body.body()).toString()}`);
      } catch (error) {
        res.status(error instanceof BodyTooLargeError ? 413 : 500).send(String(error));
      }
    }),
  );
  adapted.post('/ignore', serve(undefined, (_req, res) => res.send('not read')));
  const page = serve(undefined, (_req, res, original) => res.header('x-page', 'yes').send(res === original ? 'served by hyper-express' : 'served by the adapter'));
  adapted.get('/page', page);
  adapted.head('/page', page);
  const file = serve(undefined, (_req, res) => res.header('x-file', 'yes').stream(Readable.from([FILE.subarray(0, 100_000), FILE.subarray(100_000)]), FILE.length));
  adapted.get('/file', file);
  adapted.head('/file', file);
  await adapted.listen(0, '127.0.0.1');

  plain = new Server({ max_body_length: CAP, auto_close: false });
  plain.post('/text', async (req, res) => {
    res.send(`${req.headers['content-length']}:${await req.text()}`);
  });
  plain.post('/at-once', (_req, res) => {
    res.send('at once');
  });
  plain.post('/length', (req, res) => {
    res.send(req.headers['content-length']);
  });
  plain.get('/page', (_req, res) => {
    res.send('a page body');
  });
  plain.head('/with-body', (_req, res) => {
    res.send('a page body');
  });
  plain.head('/with-length', (_req, res) => {
    res.header('content-length', '11').send();
  });
  await plain.listen(0, '127.0.0.1');
});
after(() => {
  adapted.close();
  plain.close();
});

const post = (path: string, headers: string, body: string) => `POST ${path} HTTP/1.1\r\nHost: x\r\n${headers}\r\n${body}`;
const show = (x: unknown) => JSON.stringify(x, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString() : v));

describe('hyper-express limits', () => {
  test('hyper-express limits - the adapter is written for hyper-express 6.14.12', () => {
    const pkg = createRequire(import.meta.url)('hyper-express/package.json') as { version: string };
    assert.equal(pkg.version, '6.14.12', 'check each limit below against the new version, and services/api/http/hyper-express-adapter.ts');
  });

  test('hyper-express limits - its body parser sizes a body by the last Content-Length line (uWS frames it by the first)', async () => {
    // Reading this body (req.text()) would overrun a 2-byte buffer with 4 bytes and throw in uWS's callback.
    const x = await exchange(plain.port, post('/length', 'Content-Length: 4\r\nContent-Length: 2\r\n', 'abcd'));
    assert.equal(x.replies[0]?.body.toString(), '2', show(x));
  });

  test('hyper-express limits - it reads a chunked body as empty', async () => {
    const x = await exchange(plain.port, post('/text', 'Transfer-Encoding: chunked\r\n', '3\r\nhel\r\n2\r\nlo\r\n0\r\n\r\n'));
    assert.equal(x.replies[0]?.body.toString(), 'undefined:', show(x));
  });

  test('hyper-express limits - a body over max_body_length gets an empty 413, once all of it has arrived', async () => {
    const early = await exchange(plain.port, post('/text', `Content-Length: ${CAP * 2}\r\n`, 'a'.repeat(CAP)), { waitMs: NO_ANSWER_WAIT_MS });
    assert.equal(early.replies.length, 0, show(early));
    const whole = await exchange(plain.port, post('/text', `Content-Length: ${CAP * 2}\r\n`, 'a'.repeat(CAP * 2)));
    assert.equal(whole.replies[0]?.status, 413, show(whole));
    assert.equal(whole.replies[0]?.body.length, 0, show(whole));
  });

  test('hyper-express limits - it holds a response until the whole body has arrived', async () => {
    const x = await exchange(plain.port, post('/at-once', 'Content-Length: 20\r\n', 'only ten b'), { waitMs: NO_ANSWER_WAIT_MS });
    assert.equal(x.replies.length, 0, show(x));
  });

  test('hyper-express limits - HEAD is answered only where a route is registered for HEAD', async () => {
    const x = await exchange(plain.port, 'HEAD /page HTTP/1.1\r\nHost: x\r\n\r\n', { head: [true] });
    assert.equal(x.replies[0]?.status, 404, show(x));
  });

  test('hyper-express limits - a HEAD it ends carries the body, or with only a Content-Length is never finished', async () => {
    const withBody = await exchange(plain.port, 'HEAD /with-body HTTP/1.1\r\nHost: x\r\n\r\n', { head: [true] });
    assert.equal(withBody.rest, 'a page body', show(withBody));
    // uWS's endWithoutBody(length): the connection's next request is never answered.
    const next = 'GET /page HTTP/1.1\r\nHost: x\r\n\r\n';
    const withLength = await exchange(plain.port, `HEAD /with-length HTTP/1.1\r\nHost: x\r\n\r\n${next}`, {
      head: [true],
      expected: 2,
      waitMs: NO_ANSWER_WAIT_MS,
    });
    assert.ok(withLength.replies.length < 2, show(withLength));
  });
});

describe('hyper-express adapter', () => {
  test('hyper-express adapter - a GET without a body is left to hyper-express', async () => {
    const x = await exchange(adapted.port, 'GET /page HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.equal(x.replies[0]?.body.toString(), 'served by hyper-express', show(x));
  });

  test('hyper-express adapter - reads a Content-Length body and a chunked one', async () => {
    const length = await exchange(adapted.port, post('/echo', 'Content-Length: 5\r\n', 'hello'));
    assert.equal(length.replies[0]?.body.toString(), 'length:hello', show(length));
    const chunked = await exchange(adapted.port, post('/echo', 'Transfer-Encoding: chunked\r\n', '3\r\nhel\r\n2\r\nlo\r\n0\r\n\r\n'));
    assert.equal(chunked.replies[0]?.body.toString(), 'chunked:hello', show(chunked));
    const none = await exchange(adapted.port, post('/echo', '', ''));
    assert.equal(none.replies[0]?.body.toString(), 'none:', show(none));
  });

  test('hyper-express adapter - refuses a body over the route cap at once: declared, or counted while chunks arrive', async () => {
    // Neither body is ever finished: the answer cannot wait for its end.
    const declared = await exchange(adapted.port, post('/echo', `Content-Length: ${CAP * 100}\r\n`, 'a'.repeat(CAP)));
    assert.equal(declared.replies[0]?.status, 413, show(declared));
    const chunks = `10\r\n${'a'.repeat(16)}\r\n`.repeat(3);
    const counted = await exchange(adapted.port, post('/echo', 'Transfer-Encoding: chunked\r\n', chunks));
    assert.equal(counted.replies[0]?.status, 413, show(counted));
  });

  test('hyper-express adapter - a body on a route that reads none is not read, and the answer comes at once', async () => {
    const post100k = await exchange(adapted.port, post('/ignore', 'Content-Length: 100000\r\n', 'only the start'));
    assert.equal(post100k.replies[0]?.body.toString(), 'not read', show(post100k));
    const get = await exchange(adapted.port, 'GET /page HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nonly the start');
    assert.equal(get.replies[0]?.body.toString(), 'served by the adapter', show(get));
    assert.deepEqual(get.replies[0]?.headers.find(([n]) => n === 'x-page'), ['x-page', 'yes']);
  });

  test('hyper-express adapter - untrustworthy framing is refused before the handler runs, and the connection closed', async () => {
    const x = await exchange(adapted.port, post('/echo', 'Content-Length: 9\r\nContent-Length: 2\r\n', '123456789'), { untilClosed: true });
    assert.equal(x.replies[0]?.status, 400, show(x));
    assert.match(x.replies[0]?.body.toString() ?? '', /bad_request/);
    assert.ok(x.closed);
    const hosts = await exchange(adapted.port, 'GET /page HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n', { untilClosed: true });
    assert.equal(hosts.replies[0]?.status, 400, show(hosts));
  });

  test('hyper-express adapter - HEAD is answered like GET: its headers and Content-Length, no body', async () => {
    const x = await exchange(adapted.port, 'HEAD /page HTTP/1.1\r\nHost: x\r\n\r\nGET /page HTTP/1.1\r\nHost: x\r\n\r\n', {
      expected: 2,
      head: [true],
    });
    const [head, get] = x.replies;
    assert.equal(head?.status, 200, show(x));
    assert.deepEqual(head.headers.find(([n]) => n === 'x-page'), ['x-page', 'yes']);
    assert.deepEqual(head.headers.find(([n]) => n === 'content-length'), ['content-length', String('served by the adapter'.length)]);
    assert.equal(get?.body.toString(), 'served by hyper-express', 'the HEAD left no bytes before the next response');
  });

  test('hyper-express adapter - a streamed body: all of it for a GET it serves, its length alone for HEAD', async () => {
    const get = await exchange(adapted.port, 'GET /file HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc');
    assert.equal(get.replies[0]?.body.length, FILE.length, `${get.replies[0]?.body.length} bytes`);
    assert.ok(get.replies[0]?.body.equals(FILE));
    const head = await exchange(adapted.port, 'HEAD /file HTTP/1.1\r\nHost: x\r\n\r\nGET /page HTTP/1.1\r\nHost: x\r\n\r\n', {
      expected: 2,
      head: [true],
    });
    assert.deepEqual(head.replies[0]?.headers.find(([n]) => n === 'content-length'), ['content-length', String(FILE.length)], show(head.replies[0]));
    assert.deepEqual(head.replies[0]?.headers.find(([n]) => n === 'x-file'), ['x-file', 'yes']);
    assert.equal(head.replies[1]?.body.toString(), 'served by hyper-express', 'the HEAD left no bytes before the next response');
  });
});
