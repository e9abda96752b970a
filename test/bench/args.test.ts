// The bench's --load-class option: how wrk is scheduled next to the stack (scripts/bench/args.ts), and the
// check that the class can take effect before a run names it (scripts/bench/load-class.ts).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';

import { LOAD_CLASSES, parseBenchArgs } from '../../scripts/bench/args.ts';
import { settleLoadClass } from '../../scripts/bench/load-class.ts';

/** Whether this process may raise a priority (root or CAP_SYS_NICE): the prompt class needs it. */
function mayRaisePriority(): boolean {
  return spawnSync('nice', ['-n', '-1', 'true'], { encoding: 'utf8' }).stderr === '';
}

describe('bench options', () => {
  it('bench options - wrk runs prompt unless --load-class names normal or batch', () => {
    assert.equal(parseBenchArgs([]).loadClass, 'prompt');
    assert.equal(parseBenchArgs([]).loadClassGiven, false);
    assert.equal(parseBenchArgs(['--load-class', 'batch']).loadClass, 'batch');
    assert.equal(parseBenchArgs(['--load-class', 'normal']).loadClassGiven, true);
    assert.throws(() => parseBenchArgs(['--load-class', 'idle']), /--load-class must be one of normal, batch, prompt \(got idle\)/);
  });

  it('bench options - --accept-encoding is sent by wrk with every request; none by default', () => {
    assert.equal(parseBenchArgs([]).acceptEncoding, undefined);
    assert.equal(parseBenchArgs(['--accept-encoding', 'gzip, deflate, br']).acceptEncoding, 'gzip, deflate, br');
  });

  it('bench options - the prompt prefix runs its command at nice -10 in an autogroup at nice -10, where it may', (t) => {
    if (!mayRaisePriority()) return t.skip('this user may not raise a priority');
    const [command, ...args] = [...LOAD_CLASSES.prompt.prefix, 'sh', '-c', 'nice; cat /proc/self/autogroup'];
    const r = spawnSync(command, args, { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const [nice, group] = r.stdout.trim().split('\n');
    assert.equal(nice, '-10');
    assert.match(group ?? '', /^\/autogroup-\d+ nice -10$/);
    const opts = parseBenchArgs([]);
    assert.equal(settleLoadClass(opts), undefined);
    assert.equal(opts.loadClass, 'prompt');
  });

  it('bench options - where prompt cannot take effect, the default falls back to normal with a notice, and --load-class prompt fails', (t) => {
    if (process.getuid?.() !== 0) return t.skip('needs root, to run the check as an unprivileged user');
    // As nobody, neither the autogroup nor the process may be made nicer than 0.
    const nobody = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];
    const opts = parseBenchArgs([]);
    const notice = settleLoadClass(opts, nobody);
    assert.equal(opts.loadClass, 'normal');
    assert.match(notice ?? '', /^the default --load-class prompt could not take effect \(.+\): wrk ran as normal/);
    assert.throws(() => settleLoadClass(parseBenchArgs(['--load-class', 'prompt']), nobody), /^Error: --load-class prompt cannot take effect here \(.+\); try --load-class normal$/);
  });
});
