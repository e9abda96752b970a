// The quota store on a real metering.db: grants, single counted requests, returns, retries of a lost reply,
// limits after a downgrade, and what is leased apart from what is used.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it, type TestContext } from 'node:test';

import { openMeteringDb } from '../../services/metering/db/open.ts';
import { createQuota, type Slot } from '../../services/metering/store/quota.ts';
import { countUnits } from '../../services/shared/metering-protocol/ranges.ts';
import { tempDir } from './support.ts';

const slot: Slot = { keyId: 'key_1', endpoint: 'GET /api/v1/words', day: '2025-06-01' };

function open(t: TestContext) {
  const db = openMeteringDb(path.join(tempDir('store'), 'metering.db'));
  t.after(() => db.close());
  return { db, quota: createQuota(db) };
}

const grant = (quota: ReturnType<typeof createQuota>, holder: string, requestId: string, limit = 1000, want = 1) =>
  quota.grant(slot, holder, 'w', { limit, want, requestId }, 0);

describe('quota store', () => {
  it('quota store - grants disjoint blocks and counts granted minus returned', (t) => {
    const { quota } = open(t);
    const a = grant(quota, 'ha', 'r1');
    const b = grant(quota, 'hb', 'r2');
    assert.deepEqual(a, { status: 'granted', ranges: [[1, 125]], used: 125 });
    assert.deepEqual(b, { status: 'granted', ranges: [[126, 234]], used: 234 });
    assert.equal(quota.release(slot, 'ha', [[100, 125]], 0), 26);
    assert.equal(quota.usage(slot.keyId, slot.day).get(slot.endpoint)?.used, 234 - 26);
  });

  it('quota store - a holder can return only numbers it holds, once', (t) => {
    const { quota } = open(t);
    grant(quota, 'ha', 'r1');
    grant(quota, 'hb', 'r2');
    assert.equal(quota.release(slot, 'hb', [[1, 10]], 0), 0, 'numbers of another holder');
    assert.equal(quota.release(slot, 'ha', [[1, 10]], 0), 10);
    assert.equal(quota.release(slot, 'ha', [[1, 10]], 0), 0, 'a repeated release');
    // Returned numbers are granted again first, lowest first.
    // 776 allocatable → a block of 97: the 10 returned numbers, then 87 fresh ones.
    assert.deepEqual(grant(quota, 'hb', 'r3', 1000, 5), { status: 'granted', ranges: [[1, 10], [235, 321]], used: 321 });
  });

  it('quota store - a retried request id gets the same units instead of new ones', (t) => {
    const { quota } = open(t);
    const first = grant(quota, 'ha', 'lost-reply');
    const again = grant(quota, 'ha', 'lost-reply');
    assert.deepEqual(again, first);
    assert.equal(quota.usage(slot.keyId, slot.day).get(slot.endpoint)?.used, 125);
    const fresh = grant(quota, 'ha', 'next');
    assert.deepEqual(fresh, { status: 'granted', ranges: [[126, 234]], used: 234 });
  });

  it('quota store - never grants past the limit, and never numbers above a lowered limit', (t) => {
    const { quota } = open(t);
    // On a 50,000 plan the holder takes 2,000 units, then returns 1..1,200: 800 used.
    assert.deepEqual(grant(quota, 'ha', 'r1', 50_000), { status: 'granted', ranges: [[1, 1000]], used: 1000 });
    assert.deepEqual(grant(quota, 'ha', 'r2', 50_000), { status: 'granted', ranges: [[1001, 2000]], used: 2000 });
    assert.equal(quota.release(slot, 'ha', [[1, 1200]], 0), 1200);
    // Downgraded to 1,000: exactly 200 more, all numbered at most 1,000.
    let more = 0;
    for (let i = 0; ; i++) {
      const r = grant(quota, 'hb', `d${i}`, 1000, 10_000);
      if (r.status !== 'granted') {
        assert.deepEqual(r, { status: 'exhausted', used: 1000, limit: 1000 });
        break;
      }
      assert.ok(r.ranges.every(([, to]) => to <= 1000), JSON.stringify(r));
      more += countUnits(r.ranges);
    }
    assert.equal(more, 200);
  });

  it('quota store - admitOne counts one request: the exact count, lowest returned number first, up to the limit', (t) => {
    const { quota } = open(t);
    const admit = (holder: string, requestId: string, limit = 1000) => quota.admitOne(slot, holder, 'w', { limit, requestId }, 0);
    assert.deepEqual(admit('ha', 'a1'), { status: 'admitted', unit: 1, used: 1 });
    assert.deepEqual(admit('hb', 'b1'), { status: 'admitted', unit: 2, used: 2 });
    assert.deepEqual(grant(quota, 'ha', 'g1'), { status: 'granted', ranges: [[3, 126]], used: 126 });
    assert.equal(quota.release(slot, 'ha', [[10, 126]], 0), 117);
    // 2 counted + units 3..9 of the block: the count is 9; the returned numbers are used first.
    assert.deepEqual(admit('hb', 'b2'), { status: 'admitted', unit: 10, used: 10 });
    assert.deepEqual(admit('hb', 'b2'), { status: 'admitted', unit: 10, used: 10 }, 'a retried id is answered again, not counted again');
    assert.equal(quota.usage(slot.keyId, slot.day).get(slot.endpoint)?.used, 10);
    const tiny = { ...slot, endpoint: 'GET /api/v1/stats' as const };
    assert.deepEqual(quota.admitOne(tiny, 'ha', 'w', { limit: 1, requestId: 't1' }, 0), { status: 'admitted', unit: 1, used: 1 });
    assert.deepEqual(quota.admitOne(tiny, 'ha', 'w', { limit: 1, requestId: 't2' }, 0), { status: 'exhausted', used: 1, limit: 1 });
  });

  it('quota store - usage tells units leased to holders apart: a holder saying what it holds, or draining, settles them', (t) => {
    const { quota } = open(t);
    const usage = () => quota.usage(slot.keyId, slot.day).get(slot.endpoint);
    grant(quota, 'ha', 'r1');
    grant(quota, 'hb', 'r2');
    assert.deepEqual(usage(), { used: 234, leased: 234 });
    // ha used 1..50 and gives back the rest, all it had left.
    quota.release(slot, 'ha', [[51, 125]], 0, true);
    assert.deepEqual(usage(), { used: 159, leased: 109 }, "ha's 50 used units are no longer leased");
    // hb asks again holding 200..234 only: 126..199 were used.
    quota.grant(slot, 'hb', 'w', { limit: 1000, want: 1, requestId: 'r3', holding: [[200, 234]] }, 0);
    const after = usage();
    assert.equal(after?.leased, (after?.used ?? 0) - 50 - 74);
    // A request counted one at a time while holding nothing: nothing of hb is leased any more.
    quota.admitOne(slot, 'hb', 'w', { limit: 1000, requestId: 'a1', holding: [] }, 0);
    assert.equal(usage()?.leased, 0);
    assert.deepEqual(quota.otherHolders(slot, 'hc'), [], 'no holder left to reclaim from');
  });
});
