// Raw HTTP/1.x over a plain socket, for requests a client library refuses to send (two Content-Length lines,
// HTTP/1.0, absolute-form targets, pipelining): bytes out as written, every response on the connection parsed.
import net from 'node:net';

export interface RawReply {
  status: number;
  /** Header lines as received (lower-case names, repeats kept). */
  headers: [string, string][];
  body: Buffer;
}

export interface Exchange {
  replies: RawReply[];
  /** The server closed the connection (within the wait). */
  closed: boolean;
  /** Bytes that did not parse as a response. */
  rest: string;
}

/** How long an exchange waits for the server to answer or close before it stops listening. */
export const EXCHANGE_WAIT_MS = 3_000;

/** The first value of a header of a reply. */
export const header = (reply: RawReply, name: string): string | undefined => reply.headers.find(([n]) => n === name)?.[1];

/**
 * Sends `bytes` on a new connection from `localAddress` (any 127.x.y.z reaches a server on 127.0.0.1, and the
 * kernel spreads such connections over SO_REUSEPORT listeners), then collects responses until the server
 * closes, `expected` responses are complete (unless `untilClosed`), or `waitMs` passes. `head` marks which
 * responses answer a HEAD.
 */
export async function exchange(
  port: number,
  bytes: string | Buffer,
  options: {
    localAddress?: string;
    expected?: number;
    waitMs?: number;
    head?: readonly boolean[];
    host?: string;
    /** Keep listening after the expected responses, until the server closes (or the wait ends). */
    untilClosed?: boolean;
  } = {},
): Promise<Exchange> {
  const socket = net.connect({ port, host: options.host ?? '127.0.0.1', localAddress: options.localAddress });
  const chunks: Buffer[] = [];
  let closed = false;
  socket.on('data', (d: Buffer) => chunks.push(d));
  socket.on('error', () => undefined);
  const ended = new Promise<void>((resolve) => socket.once('close', () => {
    closed = true;
    resolve();
  }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes);
  const deadline = Date.now() + (options.waitMs ?? EXCHANGE_WAIT_MS);
  const expected = options.expected ?? 1;
  while (!closed && Date.now() < deadline) {
    if (!options.untilClosed && parseReplies(Buffer.concat(chunks), options.head).replies.length >= expected) break;
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 10))]);
  }
  socket.destroy();
  return { ...parseReplies(Buffer.concat(chunks), options.head), closed };
}

/** Complete responses in `data`, framed by Content-Length (chunked responses are not expected here). */
export function parseReplies(data: Buffer, head: readonly boolean[] = []): { replies: RawReply[]; rest: string } {
  const replies: RawReply[] = [];
  let at = 0;
  for (;;) {
    const end = data.indexOf('\r\n\r\n', at);
    if (end < 0) break;
    const lines = data.subarray(at, end).toString('latin1').split('\r\n');
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
    if (!status) break;
    const headers = lines.slice(1).map((line): [string, string] => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    });
    const code = Number(status[1]);
    const declared = headers.find(([n]) => n === 'content-length')?.[1];
    // RFC 9112 §6.3: no body on a HEAD response, a 304, a 204.
    const bodyless = head[replies.length] === true || code === 304 || code === 204;
    const length = bodyless ? 0 : Number(declared ?? 0);
    if (data.length < end + 4 + length) break;
    replies.push({ status: code, headers, body: data.subarray(end + 4, end + 4 + length) });
    at = end + 4 + length;
  }
  return { replies, rest: data.subarray(at).toString('latin1') };
}

/** A loopback source address per call, so that successive connections spread over the listeners. */
let nextAddress = 0;
export function loopbackAddress(): string {
  nextAddress++;
  return `127.0.${(nextAddress >> 8) & 255}.${(nextAddress & 255) || 1}`;
}
