// A worker started without OPERATOR_CONTACT says so at start (every page and quota_exceeded message then say
// that no contact is published); one started with it says nothing of the kind.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { startStack } from '../support/stack.ts';

const WARNING = 'OPERATOR_CONTACT is not set';

describe('operator contact at start', () => {
  it('operator contact at start - an empty OPERATOR_CONTACT is warned about in the worker log', async (t) => {
    const stack = await startStack({ workers: 1, env: { OPERATOR_CONTACT: '' } });
    t.after(() => stack.stop());
    const line = stack.logs().split('\n').find((l) => l.includes(WARNING));
    assert.ok(line, stack.logs().slice(0, 2000));
    assert.match(line, /email address or an https:\/\/ URL/);
  });

  it('operator contact at start - a configured contact brings no warning', async (t) => {
    const stack = await startStack({ workers: 1, env: { OPERATOR_CONTACT: 'ops@example.org' } });
    t.after(() => stack.stop());
    assert.ok(!stack.logs().includes(WARNING), stack.logs().slice(0, 2000));
  });
});
