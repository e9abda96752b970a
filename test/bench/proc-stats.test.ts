// The bench's CPU figures per process (scripts/bench/proc-stats.ts): /proc/<pid>/stat read as the kernel
// counts the process's own time, in all and in the kernel, so "Where the CPU went" can split the workers' cost.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';

import { CLOCK_TICK_SECONDS, cpuSeconds, cpuTimes, waitedForCoreSeconds } from '../../scripts/bench/proc-stats.ts';

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

  it('bench proc stats - two processes spinning on one core each wait for it while the other runs', async () => {
    // Both pinned to core 0: whenever one runs, the other is runnable and waits. CPU-time bounds, not
    // wall-clock ones: a loaded machine only makes the test take longer (and the waits longer).
    const spin = () => spawn('taskset', ['-c', '0', process.execPath, '-e', 'for (;;);'], { stdio: 'ignore' });
    const children = [spin(), spin()];
    try {
      const pids = children.map((c) => c.pid ?? assert.fail('spawned'));
      while (pids.some((pid) => !(cpuSeconds(pid) >= 0.5))) await sleep(50);
      const waited = pids.map(waitedForCoreSeconds);
      const ran = pids.map(cpuSeconds);
      // Each ran at least 0.5 s of CPU on the one core, so the other waited through most of it.
      assert.ok(waited[0] + waited[1] >= 0.5, `waited ${waited.join(', ')} s, ran ${ran.join(', ')} s`);
    } finally {
      for (const c of children) c.kill('SIGKILL');
    }
    assert.ok(waitedForCoreSeconds(process.pid) >= 0);
    assert.ok(Number.isNaN(waitedForCoreSeconds(2 ** 22 + 1)), 'a process that is gone');
  });
});
