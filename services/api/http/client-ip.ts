// The client's address for throttling: the socket peer, or X-Forwarded-For only when the peer is a trusted proxy.
import { isIP } from 'node:net';

/**
 * `peer` is the socket's remote address; `forwardedFor` the raw X-Forwarded-For header.
 * From a trusted proxy, the right-most address that is not itself a trusted proxy is the client
 * (left-most entries are client-supplied and could be forged).
 */
export function clientIp(peer: string, forwardedFor: string | undefined, trustProxy: readonly string[]): string {
  const self = normaliseIp(peer);
  if (!forwardedFor || trustProxy.length === 0) return self;
  const trusted = new Set(trustProxy.map(normaliseIp));
  if (!trusted.has(self)) return self;
  const hops = forwardedFor
    .split(',')
    .map((h) => h.trim())
    .filter((h) => isIP(h) !== 0)
    .map(normaliseIp);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trusted.has(hops[i])) return hops[i];
  }
  return self;
}

/**
 * One spelling per address: uWS reports IPv6 peers fully expanded
 * (0000:0000:0000:0000:0000:ffff:7f00:0001), proxies write ::ffff:127.0.0.1 or 127.0.0.1; all are one client.
 */
export function normaliseIp(address: string): string {
  const trimmed = address.trim().toLowerCase();
  if (isIP(trimmed) !== 6) return trimmed;
  // WHATWG URL parsing gives the RFC 5952 compressed form.
  const compressed = new URL(`http://[${trimmed}]`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(compressed);
  if (!mapped) return compressed;
  const high = parseInt(mapped[1], 16);
  const low = parseInt(mapped[2], 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}
