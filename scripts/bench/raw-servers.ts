// Starts the raw ceiling (scripts/bench/raw-server.ts): one process per API worker on one port, returned once
// every one of them listens.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { ROOT, TSX, startChild, stopChild } from './processes.ts';

const READY_TIMEOUT_MS = 20_000;
const POLL_MS = 100;

export interface RawServers {
  base: string;
  pids: number[];
  stop(): Promise<void>;
}

export interface RawServerOptions {
  count: number;
  port: number;
  /** The captured responses (CapturedRoutes as JSON). */
  routesFile: string;
  /** Shared by all raw servers; each writes one "listening" line naming its pid. */
  log: string;
}

/**
 * Waits for each process's own "listening" line rather than for the port to answer: with SO_REUSEPORT the port
 * answers as soon as one process listens, and wrk's connections, opened at its start, would then all go there.
 */
export async function startRawServers(o: RawServerOptions): Promise<RawServers> {
  const script = path.join(import.meta.dirname, 'raw-server.ts');
  const children = Array.from({ length: o.count }, () =>
    startChild(process.execPath, [...TSX, script, String(o.port), o.routesFile], { cwd: ROOT, log: o.log }));
  const stop = async (): Promise<void> => {
    await Promise.all(children.map((c) => stopChild(c)));
  };
  const pids = children.map((c) => c.pid ?? Number.NaN);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const text = fs.existsSync(o.log) ? fs.readFileSync(o.log, 'utf8') : '';
    if (pids.every((pid) => text.includes(`raw server ${pid} listening`))) break;
    const exited = children.find((c) => c.exitCode !== null || c.signalCode !== null);
    if (exited || Date.now() > deadline) {
      await stop();
      throw new Error(`raw server ${exited ? `exited (${exited.exitCode ?? exited.signalCode})` : `not listening within ${READY_TIMEOUT_MS} ms`}; see ${o.log}`);
    }
    await sleep(POLL_MS);
  }
  return { base: `http://127.0.0.1:${o.port}`, pids, stop };
}
