// The worker's allowance on its own, without NATS: decisions from the host's shared units (two workers of one
// host share one ledger directory) and from a worker's own block, grants in any order, asking ahead, refusals,
// reclaims and what goes back to metering.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { Allowance, EXHAUSTED_RECHECK_MS, type Return } from '../../services/api/metering-client/allowance.ts';
import { HostLedger } from '../../services/api/metering-client/host-ledger.ts';
import { InvalidApiKeyError, QuotaExceededError } from '../../services/shared/domain-errors.ts';
import { utcDay } from '../../services/shared/metering-protocol/day.ts';
import type { KeyInfo, LeaseReply } from '../../services/shared/metering-protocol/protocol.ts';
import { tempDir } from '../support/temp-dir.ts';

const HASH = 'a'.repeat(64);
const STATS = 'GET /api/v1/stats';
const NOW = Date.parse('2026-11-27T10:00:00Z');
const DAY = utcDay(NOW);
const KEY: KeyInfo = { id: 'key_1', prefix: 'svc_live_aaaaaaaa', plan: 'free', limit: 1000, expiresAt: null };

/** `workers` allowances of one host, and what each hands back to metering. */
function host(workers = 2) {
  const dir = tempDir('allowance-');
  const returned: Return[] = [];
  const all = Array.from({ length: workers }, () => new Allowance(new HostLedger(dir), (r) => returned.push(r)));
  return { all, returned };
}

let requests = 0;
/** A request id per reply of a worker's own, as each request for units has its own. */
const nextId = () => `req-${++requests}`;
/** The id a worker asks for the host's units with: the host's pending request, which the grant answering it retires. */
const hostRequest = (a: Allowance) => a.host.pendingRequest(HASH, STATS, DAY);

const granted = (from: number, to: number, used: number, held: number): LeaseReply => ({ status: 'granted', key: KEY, day: DAY, ranges: [[from, to]], used, held });

/** Decides one request per call in turns of their own (no two meet): the Used each was admitted with. */
function usedOf(a: Allowance, times: number, start = 0): (number | string)[] {
  return Array.from({ length: times }, (_, i) => {
    const d = a.decide(HASH, STATS, NOW, start + i);
    return d.kind === 'admitted' ? d.admission.used : d.kind;
  });
}

describe('Allowance', () => {
  it('Allowance - a key nobody on the host knows: ask metering for units for the host', () => {
    const { all } = host(1);
    assert.deepEqual(all[0].decide(HASH, STATS, NOW, 0), { kind: 'ask', holder: 'host' });
  });

  it('Allowance - a grant to the host serves every worker of it, with one exact count', () => {
    const { all: [a, b] } = host();
    a.apply(HASH, STATS, 'host', granted(1, 125, 125, 125), NOW, hostRequest(a));
    const seen = [...usedOf(a, 2), ...usedOf(b, 2, 10), ...usedOf(a, 1, 20)];
    assert.deepEqual(seen, [1, 2, 3, 4, 5]);
    const decision = b.decide(HASH, STATS, NOW, 30);
    assert.ok(decision.kind === 'admitted' && decision.admission.unit === 6 && decision.admission.remaining === 994, JSON.stringify(decision));
  });

  it("Allowance - the count adds other holders' units, whatever order the host's grants arrive in", () => {
    const { all: [a] } = host(1);
    // Metering granted 1..125 (used 125), then 126..234 (used 234): the second reply comes first.
    a.apply(HASH, STATS, 'host', granted(126, 234, 234, 234), NOW, hostRequest(a));
    a.apply(HASH, STATS, 'host', granted(1, 125, 125, 125), NOW, hostRequest(a));
    assert.deepEqual(usedOf(a, 3), [1, 2, 3]);
    // 40 units counted for another holder: a grant says so (used - held).
    a.apply(HASH, STATS, 'host', granted(300, 309, 284, 244), NOW, hostRequest(a));
    assert.deepEqual(usedOf(a, 2, 10), [44, 45]);
  });

  it('Allowance - once half of its last block is used, the host asks ahead, one worker at a time', () => {
    const { all: [a, b] } = host();
    a.apply(HASH, STATS, 'host', granted(1, 10, 10, 10), NOW, hostRequest(a));
    const aheads = Array.from({ length: 8 }, (_, i) => {
      const d = (i % 2 ? b : a).decide(HASH, STATS, NOW, i);
      return d.kind === 'admitted' ? d.ahead?.holder ?? '-' : d.kind;
    });
    // The sixth leaves 4 of 10 held: that worker asks for the host; the others know someone is asking.
    assert.deepEqual(aheads, ['-', '-', '-', '-', '-', 'host', '-', '-']);
  });

  it('Allowance - two requests in one turn put the key at volume: that worker asks for a block of its own', () => {
    const { all: [a] } = host(1);
    a.apply(HASH, STATS, 'host', granted(1, 10, 10, 10), NOW, hostRequest(a));
    const turn = 7;
    const aheads = Array.from({ length: 6 }, () => {
      const d = a.decide(HASH, STATS, NOW, turn);
      return d.kind === 'admitted' ? d.ahead?.holder ?? '-' : d.kind;
    });
    assert.deepEqual(aheads, ['-', '-', '-', '-', '-', 'worker']);
    // Its own block then serves it first, with no host transaction.
    a.apply(HASH, STATS, 'worker', granted(11, 20, 20, 10), NOW, nextId());
    const d = a.decide(HASH, STATS, NOW, turn + 1);
    assert.ok(d.kind === 'admitted' && d.admission.unit === 11, JSON.stringify(d));
  });

  it('Allowance - a day used up is refused on every worker of the host until the recheck', () => {
    const { all: [a, b] } = host();
    a.apply(HASH, STATS, 'host', { status: 'exhausted', key: KEY, day: DAY, used: 1000, limit: 1000 }, NOW, hostRequest(a));
    const refused = b.decide(HASH, STATS, NOW + 10, 0);
    assert.ok(refused.kind === 'refused' && refused.error instanceof QuotaExceededError, JSON.stringify(refused));
    assert.deepEqual(b.decide(HASH, STATS, NOW + EXHAUSTED_RECHECK_MS, 1), { kind: 'ask', holder: 'host' });
  });

  it('Allowance - a key metering refuses is forgotten, its units handed back, and refused here briefly', () => {
    const { all: [a], returned } = host(1);
    a.apply(HASH, STATS, 'host', granted(1, 10, 10, 10), NOW, hostRequest(a));
    a.apply(HASH, STATS, 'host', { status: 'invalid' }, NOW, hostRequest(a));
    assert.deepEqual(returned.map((r) => [r.holder, r.ranges, r.drained]), [['host', [[1, 10]], true]]);
    const d = a.decide(HASH, STATS, NOW, 0);
    assert.ok(d.kind === 'refused' && d.error instanceof InvalidApiKeyError);
  });

  it('Allowance - an expired key is refused and forgotten on the host', () => {
    const { all: [a, b], returned } = host();
    a.apply(HASH, STATS, 'host', granted(1, 10, 10, 10), NOW, hostRequest(a));
    a.keys.upsert(HASH, { ...KEY, expiresAt: NOW });
    const d = a.decide(HASH, STATS, NOW, 0);
    assert.ok(d.kind === 'refused' && d.error instanceof InvalidApiKeyError);
    assert.equal(returned.length, 1);
    assert.deepEqual(b.decide(HASH, STATS, NOW, 1), { kind: 'ask', holder: 'host' }, 'the other worker no longer finds it');
  });

  it("Allowance - a reclaim drains the host's units; the count goes on from the units it served", () => {
    const { all: [a, b] } = host();
    a.apply(HASH, STATS, 'host', granted(1, 10, 10, 10), NOW, hostRequest(a));
    assert.deepEqual(usedOf(a, 3), [1, 2, 3]);
    assert.deepEqual(b.reclaim('host', KEY.id, STATS, DAY), [[4, 10]]);
    assert.deepEqual(b.decide(HASH, STATS, NOW, 9), { kind: 'ask', holder: 'host' });
    // Metering took the 7 back (used 3, of which the host's 3 served), then granted 11..20.
    b.apply(HASH, STATS, 'host', granted(11, 20, 13, 13), NOW, hostRequest(b));
    assert.deepEqual(usedOf(a, 2, 20), [4, 5]);
  });

  it("Allowance - forgetting every key hands back the host's units and the worker's own", () => {
    const { all: [a], returned } = host(1);
    a.apply(HASH, STATS, 'host', granted(1, 10, 10, 10), NOW, hostRequest(a));
    a.apply(HASH, STATS, 'worker', granted(11, 20, 20, 10), NOW, nextId());
    a.forgetAll();
    assert.deepEqual(returned.map((r) => [r.holder, r.ranges]).sort(), [['host', [[1, 10]]], ['worker', [[11, 20]]]]);
    assert.deepEqual(a.decide(HASH, STATS, NOW, 0), { kind: 'ask', holder: 'host' });
  });

  it("Allowance - one reply got by two workers of the host (one request id) joins the ledger once", () => {
    const { all: [a, b] } = host();
    const id = a.host.pendingRequest(HASH, STATS, DAY);
    assert.equal(b.host.pendingRequest(HASH, STATS, DAY), id, 'both workers ask with the same id');
    a.apply(HASH, STATS, 'host', granted(1, 10, 10, 10), NOW, id);
    assert.deepEqual(usedOf(a, 3), [1, 2, 3]);
    b.apply(HASH, STATS, 'host', granted(1, 10, 10, 10), NOW, id);
    const d = b.decide(HASH, STATS, NOW, 9);
    assert.ok(d.kind === 'admitted' && d.admission.unit === 4, `units taken are not handed out again: ${JSON.stringify(d)}`);
    assert.notEqual(a.host.pendingRequest(HASH, STATS, DAY), id, 'the grant retired the id: the next request has a new one');
  });

  it('Allowance - a repeat of an answered host request that a worker reads after a later grant joined does not join', () => {
    // Near the limit blocks are single units and both workers ask for the host at once, with one id: metering
    // grants unit 988 to one request and answers the other with the same unit (a repeat).
    const { all: [a, b] } = host();
    const first = hostRequest(a);
    assert.equal(hostRequest(b), first, 'both workers ask with the same id');
    a.apply(HASH, STATS, 'host', granted(988, 988, 988, 988), NOW, first);
    const served = a.decide(HASH, STATS, NOW, 0);
    assert.ok(served.kind === 'admitted' && served.admission.unit === 988, JSON.stringify(served));
    // Worker a asks again (a new id) and its grant joins before b has read its reply to the first request.
    const second = hostRequest(a);
    assert.notEqual(second, first);
    a.apply(HASH, STATS, 'host', granted(989, 989, 989, 989), NOW, second);
    b.apply(HASH, STATS, 'host', granted(988, 988, 989, 989), NOW, first);
    const units = [b.decide(HASH, STATS, NOW, 1), b.decide(HASH, STATS, NOW, 2)].map((d) => (d.kind === 'admitted' ? d.admission.unit : d.kind));
    assert.deepEqual(units, [989, 'ask'], 'unit 988 is not served twice');
  });

  it('Allowance - a host grant given back because a key change crossed it is given back by one worker only', () => {
    const { all: [a, b] } = host();
    const id = hostRequest(a);
    a.apply(HASH, STATS, 'host', granted(1, 10, 10, 10), NOW, id);
    // Worker b's copy of the reply crossed a keys-changed broadcast: the units are a's now, not b's to return.
    assert.equal(b.host.discard(HASH, STATS, DAY, id), false);
    const other = hostRequest(b);
    assert.equal(b.host.discard(HASH, STATS, DAY, other), true, 'a reply no worker has applied is given back');
    a.apply(HASH, STATS, 'host', granted(11, 20, 20, 20), NOW, other);
    assert.deepEqual(a.host.holding(HASH, STATS, DAY), [[1, 10]], 'and does not join afterwards');
  });

  it("Allowance - a key forgotten and learned again goes on counting from the host's count", () => {
    const { all: [a] } = host(1);
    a.apply(HASH, STATS, 'host', granted(1, 10, 10, 10), NOW, hostRequest(a));
    assert.deepEqual(usedOf(a, 3), [1, 2, 3]);
    a.forget(HASH);
    // Metering took 4..10 back; the host's 3 served units are still its own there.
    a.apply(HASH, STATS, 'host', granted(11, 20, 13, 13), NOW, hostRequest(a));
    assert.deepEqual(usedOf(a, 2, 10), [4, 5]);
  });
});
