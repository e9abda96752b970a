// A worker's lease of one key, endpoint and day: numbers lowest first, the rate it asks ahead by, the count it
// reports, and when the key is at volume.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { EndpointLease, VOLUME_WINDOW_MS } from '../../services/api/metering-client/endpoint-lease.ts';

describe('EndpointLease', () => {
  it('EndpointLease - hands out its numbers lowest first, then nothing', () => {
    const lease = new EndpointLease('2026-11-24', 0);
    lease.add([[5, 6], [1, 2]], 0);
    assert.deepEqual([1, 2, 3, 4, 5].map((_, turn) => lease.take(1, turn)), [1, 2, 5, 6, undefined]);
  });

  it('EndpointLease - unitsFor: what the rate since the last grant takes over a horizon', () => {
    const lease = new EndpointLease('2026-11-24', 1_000);
    lease.grant([[1, 1000]], 1000, 1_000);
    assert.equal(lease.unitsFor(500, 1_000), 0, 'nothing taken yet: no rate');
    for (let i = 0; i < 300; i++) lease.take(1_010, 1);
    assert.equal(lease.unitsFor(500, 1_010), 15_000, '300 units in 10 ms');
    assert.equal(lease.unitsFor(500, 1_000), 150_000, 'within the same millisecond: counted as one');
    // A new grant measures afresh.
    lease.grant([[1001, 1001]], 1001, 2_000);
    lease.take(2_100, 2);
    assert.equal(lease.unitsFor(500, 2_100), 5);
  });

  it('EndpointLease - used: the count with the last grant, less what is held, plus what was taken since', () => {
    const lease = new EndpointLease('2026-11-24', 0);
    // Units 101..200 granted when the slot counted 250 units in all (another worker holds 50 unused of them).
    lease.grant([[101, 200]], 250, 0);
    lease.take(0, 1);
    assert.equal(lease.used(), 151);
    lease.take(0, 1);
    assert.equal(lease.used(), 152);
    // A refill while 98 are still held: the slot now counts 400 with it, 148 held here.
    lease.grant([[301, 350]], 400, 0);
    lease.take(0, 2);
    assert.equal(lease.used(), 253, 'counted 400, 148 of them held here before this one');
  });

  it('EndpointLease - at volume when two units are taken in one turn, for VOLUME_WINDOW_MS', () => {
    const lease = new EndpointLease('2026-11-24', 0);
    lease.add([[1, 10]], 0);
    lease.take(0, 1);
    lease.take(10, 2);
    assert.equal(lease.atVolume(10), false, 'one unit per turn: one request at a time');
    lease.take(20, 2);
    assert.equal(lease.atVolume(20), true, 'two in one turn');
    assert.equal(lease.atVolume(20 + VOLUME_WINDOW_MS - 1), true);
    assert.equal(lease.atVolume(20 + VOLUME_WINDOW_MS), false);
  });
});
