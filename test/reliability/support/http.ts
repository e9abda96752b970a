// A raw HTTP/1.1 client for hostile requests: headers as ordered pairs (duplicates kept), paths and header
// values sent byte for byte (fetch would normalise or refuse exactly the parts we want to send), keep-alive.
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

export type HeaderPairs = readonly (readonly [string, string])[];

export interface RawRequest {
  method: string;
  /** Sent as written: percent-encoding is not checked, non-ASCII goes out as UTF-8 bytes. */
  path: string;
  headers?: HeaderPairs;
  body?: Buffer | string;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as a client reads it: decoded when the response names a content coding it used. */
  text: string;
}

/** A compressed body decoded as any client would; bytes that do not decode are left as they came. */
function decodeBody(bytes: Buffer, coding: string | undefined): string {
  try {
    if (coding === 'br') return brotliDecompressSync(bytes).toString('utf8');
    if (coding === 'gzip') return gunzipSync(bytes).toString('utf8');
  } catch {
    // left as sent: the invariants then report a body that is not what it claims
  }
  return bytes.toString('utf8');
}

/** A string's UTF-8 bytes as a latin1 string: node writes request lines and header values as latin1. */
export function wire(value: string): string {
  return Buffer.from(value, 'utf8').toString('latin1');
}

/** Whether node's client can put `path` on the wire (it refuses spaces and control characters). */
export function sendablePath(path: string): boolean {
  return !/[^\u0021-\u00ff]/.test(wire(path));
}

export interface HttpClient {
  send(request: RawRequest, timeoutMs?: number): Promise<RawResponse>;
  close(): void;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 15_000;

/** `localAddress`: the client's source address (any 127.x.y.z reaches a server on 127.0.0.1). */
export function httpClient(baseUrl: string, maxSockets = 8, localAddress?: string): HttpClient {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const host = url.host;
  return {
    send(request, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS) {
      return new Promise<RawResponse>((resolve, reject) => {
        const flat: string[] = ['Host', host];
        for (const [name, value] of request.headers ?? []) flat.push(wire(name), wire(value));
        const body = request.body === undefined ? undefined : Buffer.from(request.body);
        if (body !== undefined && !(request.headers ?? []).some(([n]) => n.toLowerCase() === 'content-length')) {
          flat.push('Content-Length', String(body.length));
        }
        const req = http.request(
          {
            agent,
            hostname: url.hostname,
            port: url.port,
            method: request.method,
            path: wire(request.path),
            localAddress,
            headers: flat,
            // Hostile responses must reach the assertions, not fail in the parser.
            insecureHTTPParser: true,
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              clearTimeout(timer);
              const coding = res.headers['content-encoding'];
              resolve({ status: res.statusCode ?? 0, headers: res.headers, text: decodeBody(Buffer.concat(chunks), typeof coding === 'string' ? coding : undefined) });
            });
            res.on('error', reject);
          },
        );
        const timer = setTimeout(() => {
          req.destroy(new Error(`no response within ${timeoutMs} ms: ${request.method} ${request.path}`));
        }, timeoutMs);
        req.on('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
        req.end(body);
      });
    },
    close() {
      agent.destroy();
    },
  };
}

/** Runs `fn` over `items` with at most `concurrency` in flight; results in input order. */
export async function pool<T, R>(items: readonly T[], concurrency: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  });
  await Promise.all(lanes);
  return out;
}
