// Load without a load tool: keep-alive connections, each sending its next GET as soon as the last response
// has arrived, counting every response's status. Enough to make API workers log thousands of lines a second
// from one test process; loopback only, stopped by the caller. (No pipelining: uWS closes a connection whose
// pipelined requests arrive while an earlier response is still waiting for its lease.)
import net from 'node:net';

export interface BlastOptions {
  baseUrl: string;
  /** Paths sent in turn. */
  paths: readonly string[];
  /** One key per connection, in turn. */
  keys: readonly string[];
  connections?: number;
}

export interface Blast {
  /** Responses by status so far. */
  readonly statuses: Map<number, number>;
  /** Connections that failed (reset, closed early). */
  readonly failures: string[];
  /** Stops after the requests in flight; resolves with the totals. */
  stop(): Promise<Map<number, number>>;
}

const HEAD_END = Buffer.from('\r\n\r\n');

export function startBlast(options: BlastOptions): Blast {
  const url = new URL(options.baseUrl);
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  let running = true;

  const lane = (n: number) =>
    new Promise<void>((resolve) => {
      const key = options.keys[n % options.keys.length];
      const requests = options.paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: ${url.host}\r\nX-API-Key: ${key}\r\n\r\n`);
      const socket = net.connect({ host: url.hostname, port: Number(url.port) });
      let buffer: Buffer = Buffer.alloc(0);
      let turn = n;
      const send = () => {
        if (running) socket.write(requests[turn++ % requests.length]);
        else socket.end();
      };
      socket.on('connect', send);
      socket.on('data', (chunk: Buffer) => {
        buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
        for (;;) {
          const end = buffer.indexOf(HEAD_END);
          if (end < 0) break;
          const head = buffer.subarray(0, end).toString('latin1');
          const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
          if (buffer.length < end + 4 + length) break;
          const status = Number(head.slice(9, 12));
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          buffer = buffer.subarray(end + 4 + length);
          send();
        }
      });
      socket.on('error', (error) => {
        if (running) failures.push(`connection ${n}: ${error.message}`);
      });
      socket.on('close', () => {
        if (running) failures.push(`connection ${n} closed`);
        resolve();
      });
    });

  const lanes = Array.from({ length: options.connections ?? 16 }, (_, n) => lane(n));
  return {
    statuses,
    failures,
    async stop() {
      running = false;
      await Promise.all(lanes);
      return statuses;
    },
  };
}
