// Which test files `npm run test:unit` runs (scripts/test-files.ts): those whose imports reach no server at any
// depth, so that a helper starting nats-server, the API stack, pm2 or a browser, or taking a port to listen
// on, keeps its tests out.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, it } from 'node:test';

const list = (...args: string[]) =>
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/test-files.ts', ...args], { encoding: 'utf8' }).trim().split('\n');

describe('test files', () => {
  it('test files - the unit tier leaves out every file that reaches a server, directly or through a helper', () => {
    const all = list();
    const unit = list('--unit');
    assert.ok(unit.every((f) => all.includes(f)), unit.join('\n'));
    for (const file of ['test/snapshot/format/text.test.ts', 'test/snapshot/reader/reader.test.ts', 'test/bench/report.test.ts', 'test/metering/quota-store.test.ts', 'test/run/test-files.test.ts']) {
      assert.ok(unit.includes(file), `${file} starts no server:\n${unit.join('\n')}`);
    }
    for (const file of [
      'test/api/contract.test.ts', // test/api/support.ts → test/support/stack.ts
      'test/metering/auth.test.ts', // test/support/nats.ts
      'test/reliability/fuzz.words.test.ts', // ./support/fixture.ts → test/support/stack.ts
      'test/run/publish.test.ts', // test/support/pm2-stack.ts
      'test/web/browser.test.ts', // playwright-core
      'test/bench/raw-servers.test.ts', // test/support/listeners.ts → test/support/free-port.ts
    ]) {
      assert.ok(all.includes(file) && !unit.includes(file), `${file} starts servers:\n${unit.join('\n')}`);
    }
  });

  it('test files - the long runs are listed apart from the rest', () => {
    assert.deepEqual(list('--long'), ['test/long/cluster.netns.test.ts', 'test/long/faults.pm2.test.ts', 'test/long/flood.test.ts', 'test/long/log-stall.pm2.test.ts', 'test/long/log.pipe.test.ts']);
    assert.ok(list().every((f) => f.startsWith('test/') && !f.startsWith('test/long/') && f.endsWith('.test.ts')));
  });
});
