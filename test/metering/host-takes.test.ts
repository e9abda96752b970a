// Group commit of the host's ledger in a worker: the takes of one event-loop turn share a write transaction per
// stripe, each is answered only once committed, in order, and a commit that fails fails its admissions closed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import { HOST_LEDGER_DIR, HostLedger, STRIPES, type HostTake } from '../../services/api/metering-client/host-ledger.ts';
import { HostTakes } from '../../services/api/metering-client/host-takes.ts';
import { utcDay } from '../../services/shared/metering-protocol/day.ts';
import type { KeyInfo } from '../../services/shared/metering-protocol/protocol.ts';
import { tempDir } from '../support/temp-dir.ts';

const STATS = 'GET /api/v1/stats';
const NOW = Date.parse('2026-11-27T10:00:00Z');
const DAY = utcDay(NOW);
/** Keys whose hashes fall in different stripes (the stripe is chosen by hash characters 8-16). */
const HASHES = ['a', 'b', 'c'].map((c, i) => `${c.repeat(8)}${String(i).repeat(8)}${c.repeat(48)}`);
const info = (n: number): KeyInfo => ({ id: `key_${n}`, prefix: `svc_live_${String(n).repeat(8)}`, plan: 'free', limit: 1000, expiresAt: null });

/** Two workers' ledgers of one host, each hash granted units 1..10. */
function host() {
  const dir = tempDir('host-takes-');
  const [a, b] = [new HostLedger(dir), new HostLedger(dir)];
  // Each grant answers the slot's pending request, as metering's replies do.
  HASHES.forEach((hash, n) => a.grant(hash, STATS, DAY, info(n), { requestId: a.pendingRequest(hash, STATS, DAY), ranges: [[1, 10]], others: 0 }));
  return { a, b };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const summary = (t: HostTake | Error | undefined) => (t === undefined || t instanceof Error ? t : { unit: t.unit, used: t.used });

describe('HostTakes', () => {
  it('HostTakes - the takes of one turn are answered at its end, after their commit, in order', async () => {
    const { a, b } = host();
    const takes = new HostTakes(a, () => NOW, 0.5, 1000);
    const seen: { hash: string; take: HostTake | Error }[] = [];
    for (const hash of [HASHES[0], HASHES[1], HASHES[0], HASHES[2], HASHES[0]]) takes.take(hash, STATS, DAY, (take) => seen.push({ hash, take }));
    assert.equal(seen.length, 0, 'nothing is answered before the commit');
    await nextTurn();
    assert.deepEqual(
      seen.map((s) => [s.hash, summary(s.take)]),
      [
        [HASHES[0], { unit: 1, used: 1 }],
        [HASHES[1], { unit: 1, used: 1 }],
        [HASHES[0], { unit: 2, used: 2 }],
        [HASHES[2], { unit: 1, used: 1 }],
        [HASHES[0], { unit: 3, used: 3 }],
      ],
    );
    // Committed: the host's other worker goes on from the same count.
    assert.deepEqual(summary(b.take(HASHES[0], STATS, DAY, NOW, 0.5, 1000)), { unit: 4, used: 4 });
  });

  it('HostTakes - a take alone in its turn is answered at the end of that turn', async () => {
    const { a } = host();
    const takes = new HostTakes(a, () => NOW, 0.5, 1000);
    const seen: (HostTake | Error)[] = [];
    takes.take(HASHES[1], STATS, DAY, (take) => seen.push(take));
    await nextTurn();
    takes.take(HASHES[1], STATS, DAY, (take) => seen.push(take));
    await nextTurn();
    assert.deepEqual(seen.map(summary), [{ unit: 1, used: 1 }, { unit: 2, used: 2 }]);
  });

  it('HostTakes - a slot the host holds nothing of answers without a unit', async () => {
    const { a } = host();
    const takes = new HostTakes(a, () => NOW, 0.5, 1000);
    const seen: (HostTake | Error)[] = [];
    takes.take(HASHES[0], 'GET /api/v1/languages', DAY, (take) => seen.push(take));
    await nextTurn();
    assert.deepEqual(seen, [{ used: 0, askAhead: false, exhaustedUntil: 0, exhaustedUsed: 0 }]);
  });

  it('HostTakes - a commit that fails answers its admissions with the error (they fail closed)', async () => {
    const dir = tempDir('host-takes-closed-');
    const ledger = new HostLedger(dir);
    ledger.grant(HASHES[0], STATS, DAY, info(0), { requestId: ledger.pendingRequest(HASHES[0], STATS, DAY), ranges: [[1, 10]], others: 0 });
    const takes = new HostTakes(ledger, () => NOW, 0.5, 1000);
    const seen: (HostTake | Error)[] = [];
    takes.take(HASHES[0], STATS, DAY, (take) => seen.push(take));
    await ledger.close();
    await nextTurn();
    assert.equal(seen.length, 1);
    assert.ok(seen[0] instanceof Error, `a take on a closed ledger: ${JSON.stringify(seen[0])}`);
  });
});

describe('HostLedger', () => {
  it('HostLedger - the stripe count is fixed when the ledger is made: a new one has STRIPES, one made with 4 keeps 4', async () => {
    const fresh = tempDir('host-ledger-new-');
    const made = new HostLedger(fresh);
    assert.equal(made.stripeCount, STRIPES);
    await made.close();
    // A ledger of the earlier layout: four stripes, no count recorded.
    const older = tempDir('host-ledger-old-');
    fs.mkdirSync(path.join(older, HOST_LEDGER_DIR, 'stripe-01'), { recursive: true });
    const [a, b] = [new HostLedger(older), new HostLedger(older)];
    assert.deepEqual([a.stripeCount, b.stripeCount], [4, 4]);
    HASHES.forEach((hash, n) => a.grant(hash, STATS, DAY, info(n), { requestId: a.pendingRequest(hash, STATS, DAY), ranges: [[1, 10]], others: 0 }));
    // Each key is where the other worker looks for it: its units and count are one.
    assert.deepEqual(HASHES.map((hash) => b.take(hash, STATS, DAY, NOW, 0.5, 1000).unit), [1, 1, 1]);
    assert.deepEqual(HASHES.map((hash) => a.take(hash, STATS, DAY, NOW, 0.5, 1000).used), [2, 2, 2]);
    await Promise.all([a.close(), b.close()]);
  });
});
