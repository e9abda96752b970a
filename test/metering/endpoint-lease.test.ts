// A worker's lease of one key, endpoint and day: numbers lowest first, and the rate it asks ahead by.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { EndpointLease } from '../../services/api/metering/endpoint-lease.ts';

describe('EndpointLease', () => {
  it('EndpointLease - hands out its numbers lowest first, then nothing', () => {
    const lease = new EndpointLease('2026-11-24', 0);
    lease.add([[5, 6], [1, 2]], 0);
    assert.deepEqual([1, 2, 3, 4, 5].map(() => lease.take(1)), [1, 2, 5, 6, undefined]);
  });

  it('EndpointLease - unitsFor: what the rate since the last grant takes over a horizon', () => {
    const lease = new EndpointLease('2026-11-24', 1_000);
    lease.grant([[1, 1000]], 1_000);
    assert.equal(lease.unitsFor(500, 1_000), 0, 'nothing taken yet: no rate');
    for (let i = 0; i < 300; i++) lease.take(1_010);
    assert.equal(lease.unitsFor(500, 1_010), 15_000, '300 units in 10 ms');
    assert.equal(lease.unitsFor(500, 1_000), 150_000, 'within the same millisecond: counted as one');
    // A new grant measures afresh.
    lease.grant([[1001, 1001]], 2_000);
    lease.take(2_100);
    assert.equal(lease.unitsFor(500, 2_100), 5);
  });
});
