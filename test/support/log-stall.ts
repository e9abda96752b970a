// Stalls the reader of the workers' output, as a slow disk or a starved host does to pm2's daemon: SIGSTOP for
// a while under load, sampling the API workers' resident memory and probing the API meanwhile.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import type { Pm2Stack } from './pm2-stack.ts';

export interface StallReport {
  /** Highest resident size seen per API worker pid, bytes. */
  peakRss: Map<number, number>;
  /** Probes sent during the stall: status (0: no answer within 5 s) and time taken. */
  probes: { status: number; ms: number }[];
}

export interface ApiWorker {
  pid: number;
  restarts: number;
}

export async function apiWorkers(stack: Pm2Stack): Promise<ApiWorker[]> {
  const list = JSON.parse(await stack.pm2('jlist')) as { name: string; pid: number; pm2_env: { restart_time: number } }[];
  return list.filter((p) => p.name === 'api').map((p) => ({ pid: p.pid, restarts: p.pm2_env.restart_time }));
}

export function residentBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

/** pm2's daemon: it reads every app's stdout and stderr. */
export function pm2DaemonPid(stack: Pm2Stack): number {
  return Number(fs.readFileSync(path.join(stack.dataDir, 'pm2', 'pm2.pid'), 'utf8').trim());
}

export interface StallLength {
  /** The stall lasts at least this long… */
  minMs: number;
  /** … and then, when given, until `done` says so, at most `maxMs` in all. */
  until?: { done: () => Promise<boolean>; maxMs: number };
}

export async function stallLogReader(stack: Pm2Stack, length: StallLength, pids: readonly number[], probeKey: string): Promise<StallReport> {
  const daemon = pm2DaemonPid(stack);
  const peakRss = new Map<number, number>(pids.map((pid) => [pid, residentBytes(pid)]));
  const probes: StallReport['probes'] = [];
  // Whatever happens to the test, the daemon runs again.
  const resume = () => {
    try {
      process.kill(daemon, 'SIGCONT');
    } catch {
      // gone
    }
  };
  process.once('exit', resume);
  process.kill(daemon, 'SIGSTOP');
  try {
    const start = Date.now();
    const over = async () => {
      const elapsed = Date.now() - start;
      if (elapsed < length.minMs) return false;
      return !length.until || elapsed >= length.until.maxMs || (await length.until.done());
    };
    while (!(await over())) {
      const sent = Date.now();
      try {
        const res = await fetch(`${stack.baseUrl}/api/v1/stats`, { headers: { 'x-api-key': probeKey }, signal: AbortSignal.timeout(5_000) });
        await res.arrayBuffer();
        probes.push({ status: res.status, ms: Date.now() - sent });
      } catch {
        probes.push({ status: 0, ms: Date.now() - sent });
      }
      for (const pid of pids) peakRss.set(pid, Math.max(peakRss.get(pid) ?? 0, residentBytes(pid)));
      await sleep(200);
    }
  } finally {
    resume();
    process.off('exit', resume);
  }
  return { peakRss, probes };
}

/** Request lines the API workers have dropped so far, from the stack's metrics. */
export async function requestLinesDropped(stack: Pm2Stack): Promise<number> {
  const text = await (await fetch(stack.metricsUrl, { signal: AbortSignal.timeout(5_000) })).text();
  let total = 0;
  for (const m of text.matchAll(/^dict_log_lines_dropped_total\{kind="request",worker="api-[^"]*"\} (\d+)$/gm)) total += Number(m[1]);
  return total;
}

/** The workers' reports of lines dropped while the log reader was stopped (services/shared/log/logger.ts). */
export function droppedLinesReports(stack: Pm2Stack): Record<string, unknown>[] {
  return apiLogLines(stack, 'out').filter((l) => l.level === 'warn' && l.msg === 'log lines dropped: the log reader did not keep up');
}

/** Every line of the API workers' pm2 log files (rotated ones included), parsed where JSON. */
export function apiLogLines(stack: Pm2Stack, stream: 'out' | 'error'): Record<string, unknown>[] {
  const dir = path.join(stack.dataDir, 'pm2', 'logs');
  const lines: Record<string, unknown>[] = [];
  for (const name of fs.readdirSync(dir)) {
    if (!name.startsWith(`api-${stream}`)) continue;
    for (const line of fs.readFileSync(path.join(dir, name), 'utf8').split('\n')) {
      if (!line.startsWith('{')) continue;
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // a line cut by a reopen at rotation
      }
    }
  }
  return lines;
}
