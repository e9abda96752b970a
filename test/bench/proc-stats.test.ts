// What the bench reads of a process from /proc (scripts/bench/proc-stats.ts): CPU time as the kernel counts
// it, for the CPU per request; resident memory, for the workers' target.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';

import { CLOCK_TICK_SECONDS, cpuSeconds, processMemory } from '../../scripts/bench/proc-stats.ts';

/** A pid above the kernel's pid_max: never a running process. */
const GONE = 2 ** 22 + 1;

describe('bench proc stats', () => {
  it('bench proc stats - CPU time agrees with what the process counts itself', () => {
    const before = cpuSeconds(process.pid);
    const usageBefore = process.cpuUsage();
    // System calls and arithmetic until the process has used a clear amount of CPU (a CPU-time bound, not a
    // wall-clock one: a loaded machine only makes this take longer).
    const fd = fs.openSync(import.meta.filename, 'r');
    try {
      while (process.cpuUsage(usageBefore).user + process.cpuUsage(usageBefore).system < 300_000) for (let i = 0; i < 1000; i++) fs.fstatSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    const usage = process.cpuUsage(usageBefore);
    const used = cpuSeconds(process.pid) - before;
    // Each of the two readings may be short by up to a tick of each of its two fields.
    assert.ok(Math.abs(used - (usage.user + usage.system) / 1e6) <= 4 * CLOCK_TICK_SECONDS, `${used} s against ${(usage.user + usage.system) / 1e6} s`);
  });

  it('bench proc stats - resident memory agrees with what the process counts itself; its peak is not below it', () => {
    const memory = processMemory(process.pid);
    const rssMb = process.memoryUsage.rss() / 1024 ** 2;
    assert.equal(memory.pid, process.pid);
    // Both read the same counter; the process may have grown or shrunk a little between the two reads.
    assert.ok(Math.abs(memory.rssMb - rssMb) < 5, `${memory.rssMb} MB against ${rssMb} MB`);
    assert.ok(memory.peakRssMb >= memory.rssMb, JSON.stringify(memory));
  });

  it('bench proc stats - a process that is gone reads as not a number, not as zero', () => {
    assert.ok(Number.isNaN(cpuSeconds(GONE)));
    assert.deepEqual(processMemory(GONE), { pid: GONE, rssMb: Number.NaN, peakRssMb: Number.NaN });
  });
});
