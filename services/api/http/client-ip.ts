// The client's address for throttling: the socket peer, or X-Forwarded-For only when the peer is a trusted proxy.
import { isIP } from 'node:net';

/**
 * `peer` is the socket's remote address; `forwardedFor` the raw X-Forwarded-For header.
 * From a trusted proxy, the right-most address that is not itself a trusted proxy is the client
 * (left-most entries are client-supplied and could be forged).
 */
export function clientIp(peer: string, forwardedFor: string | undefined, trustProxy: readonly string[]): string {
  const self = normalise(peer);
  if (!forwardedFor || !trustProxy.map(normalise).includes(self)) return self;
  const hops = forwardedFor
    .split(',')
    .map((h) => normalise(h.trim()))
    .filter((h) => isIP(h) !== 0);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trustProxy.map(normalise).includes(hops[i])) return hops[i];
  }
  return self;
}

/** IPv4-mapped IPv6 (::ffff:1.2.3.4) and 1.2.3.4 are one client. */
function normalise(address: string): string {
  const lower = address.toLowerCase();
  return lower.startsWith('::ffff:') && isIP(lower.slice(7)) === 4 ? lower.slice(7) : lower;
}
