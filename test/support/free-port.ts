// Free loopback ports for the test stacks' servers, chosen outside the kernel's ephemeral range.
import fs from 'node:fs';
import { createServer } from 'node:net';

/** The kernel's range for the local ports of outgoing connections, which is also where listen(0) picks. */
function ephemeralPorts(): [number, number] {
  try {
    const [low, high] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low > 0 && high >= low) return [low, high];
  } catch {
    // not Linux: its documented default
  }
  return [32768, 60999];
}

/** The lowest port handed out: below are the well-known and registered services a machine may run. */
const LOWEST_PORT = 20_000;
const PORT_TRIES = 50;

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/**
 * A loopback port free right now, outside the kernel's ephemeral range. A port from listen(0) is in that range,
 * so between the check and the bind by the server it is for, any outgoing connection of a concurrent test file
 * (a load generator opens hundreds) may take it as its local port, and the server's bind fails on a busy port.
 * The kernel never hands out a port outside the range by itself.
 */
export async function freePort(): Promise<number> {
  const [low, high] = ephemeralPorts();
  const below = Math.max(0, low - LOWEST_PORT);
  const above = Math.max(0, 65535 - high);
  if (below + above === 0) throw new Error(`no ports outside the ephemeral range ${low}-${high}`);
  for (let i = 0; i < PORT_TRIES; i++) {
    const n = Math.floor(Math.random() * (below + above));
    const port = n < below ? LOWEST_PORT + n : high + 1 + (n - below);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port outside the ephemeral range ${low}-${high} in ${PORT_TRIES} tries`);
}
