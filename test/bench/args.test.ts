// The bench's --load-class option: how wrk is scheduled next to the stack (scripts/bench/args.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { parseBenchArgs } from '../../scripts/bench/args.ts';

describe('bench options', () => {
  it('bench options - wrk runs as any process unless --load-class batch is given', () => {
    assert.equal(parseBenchArgs([]).loadClass, 'normal');
    assert.equal(parseBenchArgs(['--load-class', 'batch']).loadClass, 'batch');
    assert.throws(() => parseBenchArgs(['--load-class', 'idle']), /--load-class must be one of normal, batch \(got idle\)/);
  });
});
