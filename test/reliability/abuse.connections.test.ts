// Connection-level abuse over raw sockets: idle and slow (byte-by-byte) connections get closed, oversized
// bodies are refused before they are read whole, malformed HTTP never yields a 5xx.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { startStack } from '../support/stack.ts';

import type { Stack } from '../support/stack.ts';

/** Generous bound for "times out": uWS closes idle HTTP sockets after about 10 s. */
const CLOSED_WITHIN_MS = 30_000;
const TEN_MB = 10 * 1024 * 1024;

let stack: Stack;
before(async () => {
  stack = await startStack({ workers: 1 });
});
after(async () => {
  await stack?.stop();
});

interface Conn {
  socket: net.Socket;
  openedAt: number;
  received: () => string;
  /** Resolves with the ms from open to close (or rejects after `CLOSED_WITHIN_MS`). */
  closed: Promise<number>;
  isClosed: () => boolean;
}

async function open(): Promise<Conn> {
  const socket = net.connect(stack.port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const openedAt = Date.now();
  let data = '';
  let done = false;
  socket.on('data', (d: Buffer) => {
    data += d.toString('latin1');
  });
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`socket still open after ${CLOSED_WITHIN_MS} ms; received ${JSON.stringify(data.slice(0, 200))}`));
    }, CLOSED_WITHIN_MS);
    socket.once('close', () => {
      done = true;
      clearTimeout(timer);
      resolve(Date.now() - openedAt);
    });
  });
  return { socket, openedAt, received: () => data, closed, isClosed: () => done };
}

/** Writes `text` one byte every `everyMs` until done or the server closes; returns bytes written. */
async function dribble(conn: Conn, text: string, everyMs: number): Promise<number> {
  let i = 0;
  while (i < text.length && !conn.isClosed() && !conn.socket.destroyed) {
    conn.socket.write(text[i++]);
    await sleep(everyMs);
  }
  return i;
}

function statusOf(raw: string): number | undefined {
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(raw);
  return m ? Number(m[1]) : undefined;
}
/** Whether `raw` holds a whole response (head and Content-Length bytes of body). */
function complete(raw: string): boolean {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const length = /\r\ncontent-length: *(\d+)/i.exec(raw.slice(0, end));
  return Buffer.byteLength(raw.slice(end + 4), 'latin1') >= Number(length?.[1] ?? 0);
}
function bodyOf(raw: string): string {
  const i = raw.indexOf('\r\n\r\n');
  return i < 0 ? '' : Buffer.from(raw.slice(i + 4), 'latin1').toString('utf8');
}

describe('connection abuse', { concurrency: true }, () => {
  test('idle - a connection that sends nothing is closed', async (t) => {
    const conn = await open();
    const ms = await conn.closed;
    t.diagnostic(`idle connection closed after ${ms} ms`);
    assert.equal(conn.received(), '');
  });

  test('idle keep-alive - a connection idle after its response is closed', async (t) => {
    const conn = await open();
    conn.socket.write('GET /api/v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n');
    const ms = await conn.closed;
    t.diagnostic(`idle keep-alive connection closed after ${ms} ms`);
    assert.equal(statusOf(conn.received()), 200);
  });

  test('slow headers - headers sent byte by byte are cut off before they complete', async (t) => {
    const conn = await open();
    const request = `GET /api/v1/stats HTTP/1.1\r\nHost: x\r\nX-API-Key: svc_live_${'0'.repeat(40)}\r\nX-Pad: ${'p'.repeat(200)}\r\n\r\n`;
    const sent = await dribble(conn, request, 100);
    const ms = await conn.closed;
    t.diagnostic(`slow-header connection closed after ${ms} ms, ${sent} of ${request.length} bytes sent`);
    assert.ok(sent < request.length, 'closed before the headers were complete');
  });

  test('slow body - a body sent byte by byte is cut off before it completes', async (t) => {
    const conn = await open();
    const body = JSON.stringify({ name: 'Slow', email: 'slow@example.org', useCase: 'u'.repeat(300) });
    conn.socket.write(`POST /api/v1/developers HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    const sent = await dribble(conn, body, 100);
    const ms = await conn.closed;
    t.diagnostic(`slow-body connection closed after ${ms} ms, ${sent} of ${body.length} body bytes sent`);
    assert.ok(sent < body.length, 'closed before the body was complete');
  });

  for (const [framing, size] of [['content-length', TEN_MB], ['content-length', 1_000_000], ['chunked', TEN_MB]] as const) {
    test(`oversized body (${framing}) - ${size} bytes are refused before they are read whole`, async (t) => {
      const conn = await open();
      const head =
        framing === 'content-length'
          ? `POST /api/v1/developers HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`
          : 'POST /api/v1/developers HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
      conn.socket.write(head);
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let queued = 0;
      while (queued < size && !conn.isClosed() && !complete(conn.received())) {
        const piece = framing === 'chunked' ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]) : chunk;
        const flushed = conn.socket.write(piece);
        queued += chunk.length;
        // Yield every chunk so that an early answer is seen; wait while the server is not reading.
        if (flushed) await sleep(0);
        else await Promise.race([new Promise((r) => conn.socket.once('drain', r)), conn.closed.catch(() => 0), sleep(2_000)]);
      }
      // Give an answer that is on its way a moment to arrive whole.
      for (let i = 0; i < 100 && !conn.isClosed() && !complete(conn.received()); i++) await sleep(10);
      const status = statusOf(conn.received());
      const written = conn.socket.bytesWritten - head.length;
      t.diagnostic(`${framing}: ${written} body bytes reached the socket before the answer (${status ?? 'none'}); closed ${conn.isClosed()}`);
      conn.socket.destroy();
      assert.ok(written < size, `the server read the whole body (answer: ${JSON.stringify(conn.received().slice(0, 300))})`);
      if (status !== undefined) {
        assert.ok(status < 500, conn.received());
        assert.equal(status, 400, `body over 16 KiB is invalid_parameter: ${conn.received().slice(0, 400)}`);
        assert.ok(complete(conn.received()), `incomplete answer: ${JSON.stringify(conn.received())}`);
        assert.equal((JSON.parse(bodyOf(conn.received())) as { error: { code: string } }).error.code, 'invalid_parameter');
      }
    });
  }

  test('malformed HTTP - never a 5xx, never a hang', async (t) => {
    const requests = [
      'GET /api/v1/words?q=a\u0000b HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /api/v1/words?q=a b HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /api/v1/stats HTTP/1.1\nHost: x\n\n',
      'GET /api/v1/stats HTTP/1.1\r\nHost x\r\n\r\n',
      'GET /api/v1/stats HTTP/1.1\r\nHost: x\r\nX-API-Key: a\r\n folded\r\n\r\n',
      'GET /api/v1/stats HTTP/9.9\r\nHost: x\r\n\r\n',
      'GET /api/v1/stats\r\n\r\n',
      'BREW /api/v1/stats HTTP/1.1\r\nHost: x\r\n\r\n',
      `GET /api/v1/stats HTTP/1.1\r\n${Array.from({ length: 200 }, (_, i) => `X-H${i}: v`).join('\r\n')}\r\n\r\n`,
      `GET /api/v1/stats HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(64 * 1024)}\r\n\r\n`,
      `GET /${'a'.repeat(64 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      'POST /api/v1/developers HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 50\r\n\r\n{"a":1}',
      'POST /api/v1/developers HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
      'POST /api/v1/developers HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      'POST /api/v1/developers HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\nzz\r\n',
      '\u0016\u0003\u0001\u0000\u00a5\u0001\u0000\u0000\u00a1\u0003\u0003', // a TLS ClientHello on the plain port
      'GET /api/v1/stats HTTP/1.1\r\nHost: x\r\nX-API-Key: \u00ff\u00fe\r\n\r\n',
    ];
    const outcomes = await Promise.all(
      requests.map(async (raw) => {
        const conn = await open();
        conn.socket.write(Buffer.from(raw, 'latin1'));
        await Promise.race([conn.closed.catch(() => 0), sleep(3_000)]);
        const received = conn.received();
        conn.socket.destroy();
        return { raw: raw.slice(0, 80), status: statusOf(received), closed: conn.isClosed(), received };
      }),
    );
    for (const o of outcomes) {
      t.diagnostic(`${JSON.stringify(o.raw)} -> ${o.status ?? 'no answer'}${o.closed ? ', closed' : ''}`);
      assert.ok(o.status === undefined || o.status < 500, `${JSON.stringify(o.raw)}: ${o.received.slice(0, 500)}`);
      assert.doesNotMatch(o.received, /node_modules|\.ts:\d|SQLITE|\n\s+at /, o.received.slice(0, 500));
    }
  });
});
