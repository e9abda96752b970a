// The bench's CPU figures per process (scripts/bench/proc-stats.ts): /proc/<pid>/stat read as the kernel
// counts the process's own time, in all and in the kernel, so "Where the CPU went" can split the workers' cost.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';

import { CLOCK_TICK_SECONDS, cpuSeconds, cpuTimes } from '../../scripts/bench/proc-stats.ts';

describe('bench proc stats', () => {
  it('bench proc stats - CPU time and its kernel part agree with what the process counts itself', () => {
    const before = cpuTimes(process.pid);
    const usageBefore = process.cpuUsage();
    // System calls until the process has spent a clear amount of time in the kernel (a CPU-time bound, not a
    // wall-clock one: a loaded machine only makes this take longer).
    const fd = fs.openSync(import.meta.filename, 'r');
    try {
      while (process.cpuUsage(usageBefore).system < 200_000) for (let i = 0; i < 1000; i++) fs.fstatSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    const usage = process.cpuUsage(usageBefore);
    const after = cpuTimes(process.pid);

    const kernel = after.kernel - before.kernel;
    const total = after.total - before.total;
    assert.ok(Math.abs(kernel - usage.system / 1e6) <= 2 * CLOCK_TICK_SECONDS, `kernel ${kernel} s against ${usage.system / 1e6} s`);
    assert.ok(Math.abs(total - (usage.user + usage.system) / 1e6) <= 2 * CLOCK_TICK_SECONDS, `total ${total} s`);
    assert.ok(after.kernel <= after.total);
    assert.equal(cpuSeconds(process.pid) >= after.total, true);
  });

  it('bench proc stats - a process that is gone reads as not a number, not as zero', () => {
    const gone = cpuTimes(2 ** 22 + 1);
    assert.ok(Number.isNaN(gone.total) && Number.isNaN(gone.kernel));
  });
});
