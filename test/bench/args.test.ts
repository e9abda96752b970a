// The bench's options (scripts/bench/args.ts): which runs are full ones, whose reports become BENCHMARKS.md
// and the README's table; and how wrk is scheduled (scripts/bench/wrk.ts, clientPriority).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';

import { FULL_SCALING_SIZES, QUICK_SCALING_SIZES, isFullRun, parseBenchArgs } from '../../scripts/bench/args.ts';
import { clientPriority } from '../../scripts/bench/wrk.ts';

describe('bench options', () => {
  it('bench options - the defaults are a full run; --quick, --only, --endpoints, --compare and a smaller corpus are not', () => {
    const defaults = parseBenchArgs([]);
    assert.deepEqual(
      { duration: defaults.durationSeconds, runs: defaults.runs, connections: defaults.connections, sizes: defaults.scalingSizes, full: isFullRun(defaults) },
      { duration: 10, runs: 3, connections: 64, sizes: FULL_SCALING_SIZES, full: true },
    );
    assert.equal(isFullRun(parseBenchArgs(['--runs', '5', '--duration', '20'])), true, 'more and longer runs still qualify');
    const quick = parseBenchArgs(['--quick']);
    assert.deepEqual({ duration: quick.durationSeconds, sizes: quick.scalingSizes, full: isFullRun(quick) }, { duration: 3, sizes: QUICK_SCALING_SIZES, full: false });
    for (const argv of [['--only', 'http'], ['--endpoints', 'stats'], ['--compare', 'main'], ['--sizes', '10000'], ['--connections', '8']]) {
      assert.equal(isFullRun(parseBenchArgs(argv)), false, argv.join(' '));
    }
    assert.deepEqual(parseBenchArgs(['--only', 'http, search', '--compare', 'HEAD~1']).only, ['http', 'search']);
    assert.equal(parseBenchArgs(['--compare', 'HEAD~1']).compare, 'HEAD~1');
  });

  it('bench options - a count that is not a whole number over its minimum is refused, naming the option', () => {
    assert.throws(() => parseBenchArgs(['--runs', '0']), /^Error: --runs must be an integer >= 1 \(got 0\)$/);
    assert.throws(() => parseBenchArgs(['--queries', '100']), /^Error: --queries must be an integer >= 2000 \(got 100\)$/);
    assert.throws(() => parseBenchArgs(['--sizes', '10000,1.5']), /^Error: --sizes must be an integer >= 100 \(got 1.5\)$/);
  });
});

/** Whether this process may raise a priority (root or CAP_SYS_NICE). */
function mayRaisePriority(): boolean {
  return spawnSync('nice', ['-n', '-1', 'true'], { encoding: 'utf8' }).stderr === '';
}

describe('bench client priority', () => {
  it('bench client priority - where it may, wrk runs at nice -10 in an autogroup at nice -10; elsewhere as any process', () => {
    const priority = clientPriority();
    if (!mayRaisePriority()) {
      assert.deepEqual(priority.prefix, []);
      assert.match(priority.says, /^the priority of any process \(raising it needs root or CAP_SYS_NICE\)/);
      return;
    }
    const [command, ...args] = [...priority.prefix, 'sh', '-c', 'nice; cat /proc/self/autogroup'];
    const r = spawnSync(command, args, { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const [nice, group] = r.stdout.trim().split('\n');
    assert.equal(nice, '-10', r.stdout);
    assert.match(group ?? '', /^\/autogroup-\d+ nice -10$/, r.stdout);
    assert.equal(priority.says, 'nice -10, in a session of its own whose autogroup is at nice -10');
  });
});
