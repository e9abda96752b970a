// The quota store on a real metering.db: grants, returns, retries of a lost reply,
// limits after a downgrade, and what is leased apart from what is used.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it, type TestContext } from 'node:test';

import { openMeteringDb } from '../../services/metering/db/open.ts';
import { QuotaStore, type Slot } from '../../services/metering/store/quota.ts';
import { countUnits } from '../../services/shared/metering-protocol/ranges.ts';
import { tempDir } from './support.ts';

const slot: Slot = { keyId: 'key_1', endpoint: 'GET /api/v1/words', day: '2025-06-01' };

function open(t: TestContext) {
  const db = openMeteringDb(path.join(tempDir('store'), 'metering.db'));
  t.after(() => db.close());
  return { db, quota: new QuotaStore(db) };
}

const grant = (quota: QuotaStore, holder: string, requestId: string, limit = 1000, want = 1) =>
  quota.grant(slot, { holder, worker: 'w', limit, want, requestId }, 0);
const returned = (quota: QuotaStore, holder: string, ranges: [number, number][], drained = false) => quota.release(slot, holder, ranges, 0, drained);

describe('quota store', () => {
  it('quota store - grants disjoint blocks and counts granted minus returned', (t) => {
    const { quota } = open(t);
    const a = grant(quota, 'ha', 'r1');
    const b = grant(quota, 'hb', 'r2');
    assert.deepEqual(a, { status: 'granted', ranges: [[1, 125]], used: 125, held: 125 });
    assert.deepEqual(b, { status: 'granted', ranges: [[126, 234]], used: 234, held: 109 });
    assert.equal(returned(quota, 'ha', [[100, 125]]), 26);
    assert.equal(quota.usage(slot.keyId, slot.day).get(slot.endpoint)?.used, 234 - 26);
  });

  it('quota store - a holder can return only numbers it holds, once', (t) => {
    const { quota } = open(t);
    grant(quota, 'ha', 'r1');
    grant(quota, 'hb', 'r2');
    assert.equal(returned(quota, 'hb', [[1, 10]]), 0, 'numbers of another holder');
    assert.equal(returned(quota, 'ha', [[1, 10]]), 10);
    assert.equal(returned(quota, 'ha', [[1, 10]]), 0, 'a repeated release');
    // Returned numbers are granted again first, lowest first.
    // 776 allocatable → a block of 97: the 10 returned numbers, then 87 fresh ones.
    assert.deepEqual(grant(quota, 'hb', 'r3', 1000, 5), { status: 'granted', ranges: [[1, 10], [235, 321]], used: 321, held: 206 });
  });

  it('quota store - a retried request id gets the same units instead of new ones', (t) => {
    const { quota } = open(t);
    const first = grant(quota, 'ha', 'lost-reply');
    const again = grant(quota, 'ha', 'lost-reply');
    assert.deepEqual(again, first);
    assert.equal(quota.usage(slot.keyId, slot.day).get(slot.endpoint)?.used, 125);
    const fresh = grant(quota, 'ha', 'next');
    assert.deepEqual(fresh, { status: 'granted', ranges: [[126, 234]], used: 234, held: 234 });
  });

  it('quota store - never grants past the limit, and never numbers above a lowered limit', (t) => {
    const { quota } = open(t);
    // On a 50,000 plan the holder takes 2,000 units, then returns 1..1,200: 800 used.
    assert.deepEqual(grant(quota, 'ha', 'r1', 50_000), { status: 'granted', ranges: [[1, 1000]], used: 1000, held: 1000 });
    assert.deepEqual(grant(quota, 'ha', 'r2', 50_000), { status: 'granted', ranges: [[1001, 2000]], used: 2000, held: 2000 });
    assert.equal(returned(quota, 'ha', [[1, 1200]]), 1200);
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

  it('quota store - a grant says how many units the holder was granted and has not returned, served ones included', (t) => {
    const { quota } = open(t);
    grant(quota, 'ha', 'r1');
    assert.deepEqual(grant(quota, 'ha', 'r2'), { status: 'granted', ranges: [[126, 234]], used: 234, held: 234 });
    assert.equal(returned(quota, 'ha', [[200, 234]], true), 35);
    // 1..199 served, and still ha's: its next grant counts them with it.
    assert.deepEqual(grant(quota, 'ha', 'r3'), { status: 'granted', ranges: [[200, 299]], used: 299, held: 299 });
  });

  it('quota store - usage tells units leased to holders apart: a holder saying what it holds, or draining, settles them', (t) => {
    const { quota } = open(t);
    const usage = () => quota.usage(slot.keyId, slot.day).get(slot.endpoint);
    grant(quota, 'ha', 'r1');
    grant(quota, 'hb', 'r2');
    assert.deepEqual(usage(), { used: 234, leased: 234 });
    // ha used 1..50 and gives back the rest, all it had left.
    returned(quota, 'ha', [[51, 125]], true);
    assert.deepEqual(usage(), { used: 159, leased: 109 }, "ha's 50 used units are no longer leased");
    // hb asks again holding 200..234 only: 126..199 were used.
    quota.grant(slot, { holder: 'hb', worker: 'w', limit: 1000, want: 1, requestId: 'r3', holding: [[200, 234]] }, 0);
    const after = usage();
    assert.equal(after?.leased, (after?.used ?? 0) - 50 - 74);
    // hb drains: nothing of it is leased any more.
    quota.release(slot, 'hb', [], 0, true);
    assert.equal(usage()?.leased, 0);
    assert.deepEqual(quota.otherHolders(slot, 'hc'), [], 'no holder left to reclaim from');
  });
});
