// The per-address windows behind the worker's and metering's throttles (services/shared/address-window.ts):
// exact over a sliding window, refused attempts counted, and bounded in the addresses and times kept.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { AddressWindow } from '../../services/shared/address-window.ts';

const MINUTE = 60_000;

describe('AddressWindow', () => {
  it('AddressWindow - allows `limit` attempts in the window, refuses the next, and slides', () => {
    const w = new AddressWindow(5, 15 * MINUTE, 100);
    const outcomes = [0, 1, 2, 3, 4, 10].map((m) => w.attempt('a', m * MINUTE));
    assert.deepEqual(outcomes, [true, true, true, true, true, false]);
    // At +15 min the first attempt has left the window, but the refused one at +10 counts: still five inside.
    assert.equal(w.attempt('a', 15 * MINUTE + 1), false);
    // Once the last five are all older than the window, the address may try again.
    assert.equal(w.attempt('a', 30 * MINUTE + 1), true);
  });

  it('AddressWindow - addresses are counted apart; full() counts nothing', () => {
    const w = new AddressWindow(2, MINUTE, 100);
    assert.equal(w.attempt('a', 0), true);
    assert.equal(w.attempt('a', 1), true);
    for (let i = 0; i < 10; i++) assert.equal(w.full('a', 2), true);
    assert.equal(w.attempt('b', 2), true);
    assert.equal(w.full('a', MINUTE + 1), false, 'full() must not have recorded anything');
  });

  it('AddressWindow - a million attempts from one address keep `limit` times; a stream of addresses keeps at most `capacity`', () => {
    const w = new AddressWindow(5, 15 * MINUTE, 1_000);
    for (let i = 0; i < 1_000_000; i++) w.attempt('flood', i);
    assert.equal(w.size, 1);
    for (let i = 0; i < 10_000; i++) w.attempt(`10.0.${i >> 8}.${i & 255}`, i);
    assert.ok(w.size <= 1_000, `kept ${w.size} addresses`);
  });
});
