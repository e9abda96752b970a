// The workers' bounded caches (services/shared/lru.ts): eviction (second chance), and admission on a key's second
// sighting.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { Doorkeeper, Lru } from '../../services/shared/lru.ts';

describe('Lru', () => {
  it('Lru - evicts the oldest key not read since; a read key gets a second chance', () => {
    const lru = new Lru<number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    assert.equal(lru.get('a'), 1);
    lru.set('c', 3);
    assert.equal(lru.get('b'), undefined);
    assert.equal(lru.get('a'), 1);
    assert.equal(lru.get('c'), 3);
    assert.equal(lru.size, 2);
  });

  it('Lru - a key read between insertions survives a stream of keys that are never read', () => {
    const lru = new Lru<number>(3);
    lru.set('hot', 0);
    for (let i = 0; i < 1_000; i++) {
      assert.equal(lru.get('hot'), 0, `lost after ${i} insertions`);
      lru.set(`cold ${i}`, i);
    }
    assert.equal(lru.size, 3);
    // The newest cold keys are kept, the older ones went first.
    assert.equal(lru.get('cold 999'), 999);
    assert.equal(lru.get('cold 0'), undefined);
  });

  it('Lru - setting a stored key replaces its value and counts as a read', () => {
    const lru = new Lru<number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.set('a', 10);
    lru.set('c', 3);
    assert.equal(lru.get('a'), 10);
    assert.equal(lru.get('b'), undefined);
    assert.equal(lru.size, 2);
  });

  it('Lru - with secondSighting, stores a key only when it is set a second time', () => {
    const lru = new Lru<string>(10, { secondSighting: true });
    lru.set('q=omi', 'page');
    assert.equal(lru.get('q=omi'), undefined);
    lru.set('q=omi', 'page');
    assert.equal(lru.get('q=omi'), 'page');
    // A stored key is replaced at once.
    lru.set('q=omi', 'page 2');
    assert.equal(lru.get('q=omi'), 'page 2');
  });

  it('Lru - with secondSighting, a stream of keys that never come back leaves the cache as it was', () => {
    const lru = new Lru<number>(100, { secondSighting: true });
    for (let i = 0; i < 10; i++) {
      lru.set(`hot ${i}`, i);
      lru.set(`hot ${i}`, i);
    }
    for (let i = 0; i < 1_000; i++) lru.set(`once ${i}`, i);
    // Only keys that pass for seen (a hash collision inside the window) are stored: well under 1 in 16.
    assert.ok(lru.size < 10 + 1_000 / 16, `size ${lru.size}`);
    for (let i = 0; i < 10; i++) assert.equal(lru.get(`hot ${i}`), i);
  });
});

describe('Doorkeeper', () => {
  it('Doorkeeper - remembers a key within its window and forgets it after', () => {
    const keeper = new Doorkeeper(8);
    assert.equal(keeper.sighted('k'), false);
    assert.equal(keeper.sighted('k'), true);
    // Eight more distinct keys fill the window; the ninth mark starts a new one.
    let fresh = 0;
    for (let i = 0; fresh < 8; i++) if (!keeper.sighted(`other ${i}`)) fresh++;
    assert.equal(keeper.sighted('k'), false);
  });

  it('Doorkeeper - a new key passes for seen well under 1 time in 16 on a full window', () => {
    const keeper = new Doorkeeper(8_000);
    for (let i = 0; i < 7_999; i++) keeper.sighted(`seen ${i}`);
    let falsePositives = 0;
    for (let i = 0; i < 1_000; i++) if (keeper.sighted(`new ${i}`)) falsePositives++;
    assert.ok(falsePositives < 1_000 / 16, `${falsePositives} of 1,000`);
  });
});
