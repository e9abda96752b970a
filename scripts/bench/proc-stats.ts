// What the stack's processes use, read from /proc: CPU time around each run, memory after the runs.
import fs from 'node:fs';

/** /proc counts CPU time in clock ticks of 1/100 s (USER_HZ): a reading may be short by up to one. */
export const CLOCK_TICK_SECONDS = 0.01;

/** CPU seconds (user + system) a process has used so far; not a number once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields 14 and 15 of stat (utime, stime) are the 12th and 13th after the command's closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_SECONDS;
  } catch {
    return Number.NaN;
  }
}

export function cpuSecondsOf(pids: readonly number[]): number {
  return pids.reduce((n, pid) => n + cpuSeconds(pid), 0);
}

export interface ProcessMemory {
  pid: number;
  rssMb: number;
  /** The highest resident size over the process's life (VmHWM). */
  peakRssMb: number;
}

function statusMb(status: string, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

export function processMemory(pid: number): ProcessMemory {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return { pid, rssMb: statusMb(status, 'VmRSS'), peakRssMb: statusMb(status, 'VmHWM') };
  } catch {
    return { pid, rssMb: Number.NaN, peakRssMb: Number.NaN };
  }
}
