// Which sockets listen on a loopback port, and whose they are (/proc). API workers listen with SO_REUSEPORT,
// so a second stack binding a port the first already holds succeeds silently and the kernel spreads the
// connections over both. The test stacks, whose ports are chosen free before their workers bind them, check
// that every listener on their ports is one of their own processes.
import fs from 'node:fs';

import { freePort } from './free-port.ts';

const LISTEN = '0A';

/** Inodes of the IPv4 TCP sockets in LISTEN on `port` (/proc/net/tcp: local address, state, inode). */
export function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const line of fs.readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10) continue;
    const [, local, , state, , , , , , inode] = fields;
    if (state === LISTEN && local.endsWith(`:${hexPort}`)) inodes.add(inode);
  }
  return inodes;
}

/** Inodes of the sockets a process holds open (its /proc/<pid>/fd links read `socket:[inode]`). */
export function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  const dir = `/proc/${pid}/fd`;
  for (const fd of fs.readdirSync(dir)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`${dir}/${fd}`));
      if (m) inodes.add(m[1]);
    } catch {
      // closed between readdir and readlink
    }
  }
  return inodes;
}

/** Listeners on `port` that none of `pids` holds: another process shares the port. */
export function strangeListeners(port: number, pids: readonly number[]): string[] {
  const ours = new Set(pids.flatMap((pid) => [...socketInodes(pid)]));
  return [...listeningInodes(port)].filter((inode) => !ours.has(inode));
}

/** Free ports tried before giving up, each found shared with another process's listener. */
const PORT_ATTEMPTS = 5;

/**
 * Starts listeners that bind with SO_REUSEPORT (`start`, which returns what it started) on a free port that
 * no other process listens on. freePort's port is free only until someone binds it: a concurrent test file
 * that got the same port would share it silently. When a stranger is found, `stop` undoes the start and
 * another free port is tried.
 */
export async function onUnsharedPort<T>(
  start: (port: number) => Promise<T>,
  pidsOf: (started: T) => readonly number[],
  stop: (started: T) => Promise<void>,
): Promise<{ port: number; started: T }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const started = await start(port);
    if (strangeListeners(port, pidsOf(started)).length === 0) return { port, started };
    await stop(started);
    if (attempt >= PORT_ATTEMPTS) throw new Error(`port ${port} is shared with another process's listener`);
  }
}
