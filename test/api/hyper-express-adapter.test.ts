// The adapter over hyper-express's internals (services/api/http/hyper-express-adapter.ts), on bare servers:
// the version it was written against, its body reader (Content-Length and chunked, capped while reading),
// framing refused before any handler, HEAD like GET, and servers it is not installed on left as they were.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';

import { Server } from 'hyper-express';

import { ApiError } from '../../services/shared/errors.ts';
import {
  answerHeadLikeGet,
  BodyTooLargeError,
  declaredBody,
  installHyperExpressAdapter,
  readBody,
} from '../../services/api/http/hyper-express-adapter.ts';
import { exchange } from '../support/raw-http.ts';

const CAP = 32;

let adapted: Server;
let plain: Server;
const refused: ApiError[] = [];

before(async () => {
  adapted = new Server({ max_body_length: 0, auto_close: false });
  installHyperExpressAdapter(adapted, (_req, res, error) => {
    refused.push(error);
    res.status(error.status).send(JSON.stringify(error.toBody()), true);
  });
  adapted.post('/echo', { max_body_length: CAP }, async (req, res) => {
    const declared = declaredBody(req).body;
    try {
      res.send(`${declared}:${(await readBody(req)).toString()}`);
    } catch (error) {
      res.status(error instanceof BodyTooLargeError ? 413 : 500).send(String(error));
    }
  });
  adapted.post('/ignore', (_req, res) => {
    res.send('not read');
  });
  adapted.get('/page', (_req, res) => {
    res.header('x-page', 'yes').send('a page body');
  });
  answerHeadLikeGet(adapted);
  await adapted.listen(0, '127.0.0.1');

  plain = new Server({ auto_close: false });
  plain.post('/echo', async (req, res) => {
    res.send(await req.text());
  });
  await plain.listen(0, '127.0.0.1');
});
after(() => {
  adapted.close();
  plain.close();
});

const post = (path: string, headers: string, body: string) => `POST ${path} HTTP/1.1\r\nHost: x\r\n${headers}\r\n${body}`;

describe('hyper-express adapter', () => {
  test('hyper-express adapter - is written for hyper-express 6.14.12 (its internals change between versions)', () => {
    const pkg = createRequire(import.meta.url)('hyper-express/package.json') as { version: string };
    assert.equal(pkg.version, '6.14.12', 'review services/api/http/hyper-express-adapter.ts against the new version');
  });

  test('hyper-express adapter - reads a Content-Length body and a chunked one', async () => {
    const length = await exchange(adapted.port, post('/echo', 'Content-Length: 5\r\n', 'hello'));
    assert.equal(length.replies[0]?.body.toString(), 'length:hello', JSON.stringify(length));
    const chunked = await exchange(adapted.port, post('/echo', 'Transfer-Encoding: chunked\r\n', '3\r\nhel\r\n2\r\nlo\r\n0\r\n\r\n'));
    assert.equal(chunked.replies[0]?.body.toString(), 'chunked:hello', JSON.stringify(chunked));
  });

  test('hyper-express adapter - refuses a body over the route cap: declared, or counted while chunks arrive', async () => {
    const declared = await exchange(adapted.port, post('/echo', `Content-Length: ${CAP + 1}\r\n`, ''));
    assert.equal(declared.replies[0]?.status, 413, JSON.stringify(declared));
    // The last chunk is never sent: the answer cannot wait for the end of the body.
    const chunks = `10\r\n${'a'.repeat(16)}\r\n`.repeat(3);
    const counted = await exchange(adapted.port, post('/echo', 'Transfer-Encoding: chunked\r\n', chunks));
    assert.equal(counted.replies[0]?.status, 413, JSON.stringify(counted));
  });

  test('hyper-express adapter - a route without a cap answers at once and its body is not read', async () => {
    const x = await exchange(adapted.port, post('/ignore', 'Content-Length: 100000\r\n', 'only the start'));
    assert.equal(x.replies[0]?.body.toString(), 'not read', JSON.stringify(x));
  });

  test('hyper-express adapter - untrustworthy framing is refused before the handler runs', async () => {
    refused.length = 0;
    const x = await exchange(adapted.port, post('/echo', 'Content-Length: 9\r\nContent-Length: 2\r\n', '123456789'), { untilClosed: true });
    assert.equal(x.replies[0]?.status, 400, JSON.stringify(x));
    assert.ok(x.closed);
    assert.deepEqual(refused.map((e) => e.code), ['bad_request']);
  });

  test('hyper-express adapter - HEAD is answered like GET: its headers and Content-Length, no body', async () => {
    const x = await exchange(adapted.port, 'HEAD /page HTTP/1.1\r\nHost: x\r\n\r\nGET /page HTTP/1.1\r\nHost: x\r\n\r\n', {
      expected: 2,
      head: [true],
    });
    const [head, get] = x.replies;
    assert.equal(head?.status, 200, JSON.stringify(x));
    assert.deepEqual(head.headers.find(([n]) => n === 'x-page'), ['x-page', 'yes']);
    assert.deepEqual(head.headers.find(([n]) => n === 'content-length'), ['content-length', String('a page body'.length)]);
    assert.equal(get?.body.toString(), 'a page body', 'the HEAD left no bytes before the next response');
  });

  test('hyper-express adapter - a server it is not installed on keeps hyper-express parsing its bodies', async () => {
    const x = await exchange(plain.port, post('/echo', 'Content-Length: 5\r\n', 'hello'));
    assert.equal(x.replies[0]?.body.toString(), 'hello', JSON.stringify(x));
  });
});
