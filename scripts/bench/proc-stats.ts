// Resource use of the stack's processes, read from /proc: memory after the run, CPU time around each run.
import fs from 'node:fs';
import path from 'node:path';

import { jlist } from './stack.ts';
import type { Stack } from './stack.ts';

const WORKER_PREFIX = 'api #';

/** Names the stack's processes as the bench reports them: pm2's name, the API workers numbered in pm2's order. */
function processNamer(): (pm2Name: string) => string {
  let workers = 0;
  return (pm2Name) => (pm2Name === 'api' ? `${WORKER_PREFIX}${workers++}` : pm2Name);
}

export function isWorker(name: string): boolean {
  return name.startsWith(WORKER_PREFIX);
}

/** The API workers' share of a record of CPU seconds by process name (stackCpu). */
export function workersCpuSeconds(cpu: Record<string, number>): number {
  return Object.entries(cpu).reduce((n, [name, seconds]) => (isWorker(name) ? n + seconds : n), 0);
}

export interface WorkerMemory {
  name: string;
  pid: number;
  rssMb: number;
  /** Peak resident size over the worker's life (VmHWM). */
  peakRssMb: number;
  /** Of the RSS: private memory (heap, native), and pages of mapped files (the snapshot's mmap, shared). */
  anonMb: number;
  fileMb: number;
  /** Proportional set size: shared pages divided among the processes sharing them (smaps_rollup). */
  pssMb: number;
}

function statusKb(pid: number, field: string): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return m ? Number(m[1]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

function pssKb(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export function processMemory(stack: Stack): WorkerMemory[] {
  const name = processNamer();
  return jlist(stack.env)
    .filter((p) => p.pid > 0)
    .map((p) => ({
      name: name(p.name),
      pid: p.pid,
      rssMb: statusKb(p.pid, 'VmRSS') / 1024,
      peakRssMb: statusKb(p.pid, 'VmHWM') / 1024,
      anonMb: statusKb(p.pid, 'RssAnon') / 1024,
      fileMb: statusKb(p.pid, 'RssFile') / 1024,
      pssMb: pssKb(p.pid) / 1024,
    }));
}

/** /proc counts CPU time in clock ticks of 1/100 s (USER_HZ): a reading may be short by up to one. */
export const CLOCK_TICK_SECONDS = 0.01;

/** CPU seconds a process has used so far, from /proc/<pid>/stat: in all (user + system) and in the kernel. */
export function cpuTimes(pid: number): { total: number; kernel: number } {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime) are at 11 and 12 after the command, in clock ticks.
    const user = Number(fields[11]) * CLOCK_TICK_SECONDS;
    const kernel = Number(fields[12]) * CLOCK_TICK_SECONDS;
    return { total: user + kernel, kernel };
  } catch {
    return { total: Number.NaN, kernel: Number.NaN };
  }
}

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid: number): number {
  return cpuTimes(pid).total;
}


/**
 * Seconds the threads of a process have so far spent runnable but waiting for a core (the second field of
 * /proc/<pid>/task/<tid>/schedstat, in ns); threads that have exited are not counted. Not a number once the
 * process is gone.
 */
export function waitedForCoreSeconds(pid: number): number {
  try {
    let ns = 0;
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      ns += Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1]);
    }
    return ns / 1e9;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds (user + system) used so far by all of `pids` together. */
export function cpuSecondsOf(pids: readonly number[]): number {
  return pids.reduce((n, pid) => n + cpuSeconds(pid), 0);
}

/** Counters of the stack's processes so far, read around each stack run (one `pm2 jlist`, one stat per process). */
export interface StackCounters {
  /** CPU seconds (user + system) by process: API workers, metering, nats-server, pm2's daemon. */
  cpu: Record<string, number>;
  /**
   * Per API worker, involuntary context switches (/proc/<pid>/status): each is a time the kernel took the
   * core from a worker that still had work, which every connection waiting on that worker then waits out.
   */
  preemptions: Record<string, number>;
  /** Per API worker, the part of `cpu` spent in the kernel on its behalf (sockets, context switches, faults). */
  kernelSeconds: Record<string, number>;
  /** Per API worker, seconds its threads waited for a core (waitedForCoreSeconds). */
  waitedSeconds: Record<string, number>;
}

function preemptionsOf(pid: number): number {
  try {
    const m = /^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export function stackCounters(stack: Stack): StackCounters {
  const counters: StackCounters = { cpu: {}, preemptions: {}, kernelSeconds: {}, waitedSeconds: {} };
  const name = processNamer();
  for (const p of jlist(stack.env)) {
    if (p.pid <= 0) continue;
    const proc = name(p.name);
    const times = cpuTimes(p.pid);
    counters.cpu[proc] = times.total;
    if (!isWorker(proc)) continue;
    counters.kernelSeconds[proc] = times.kernel;
    counters.preemptions[proc] = preemptionsOf(p.pid);
    counters.waitedSeconds[proc] = waitedForCoreSeconds(p.pid);
  }
  if (stack.natsPid) counters.cpu['nats-server'] = cpuSeconds(stack.natsPid);
  try {
    counters.cpu['pm2 daemon'] = cpuSeconds(Number(fs.readFileSync(path.join(stack.pm2Home, 'pm2.pid'), 'utf8').trim()));
  } catch {
    // no daemon pid file: nothing to count
  }
  return counters;
}
