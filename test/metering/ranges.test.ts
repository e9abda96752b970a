// Unit tests of the numbered-unit range arithmetic and the block-size rule.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import fc from 'fast-check';

import { blockSize, MAX_BLOCK_UNITS, MAX_RATE_BLOCK_UNITS } from '../../services/metering/store/block-size.ts';
import {
  clampTo,
  countUnits,
  intersect,
  normalise,
  subtract,
  takeLowest,
  union,
  type Range,
} from '../../services/shared/metering-protocol/ranges.ts';

const toSet = (ranges: readonly Range[]) => {
  const s = new Set<number>();
  for (const [a, b] of ranges) for (let n = a; n <= b; n++) s.add(n);
  return s;
};
const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);
const arbRanges = fc
  .array(fc.tuple(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 8 })), { maxLength: 8 })
  .map((xs) => normalise(xs.map(([a, len]): Range => [a, a + len])));

describe('ranges', () => {
  it('ranges - union, intersect and subtract agree with sets', () => {
    fc.assert(
      fc.property(arbRanges, arbRanges, (a, b) => {
        const A = toSet(a);
        const B = toSet(b);
        assert.deepEqual(sorted(toSet(union(a, b))), sorted(new Set([...A, ...B])));
        assert.deepEqual(sorted(toSet(intersect(a, b))), sorted(new Set([...A].filter((x) => B.has(x)))));
        assert.deepEqual(sorted(toSet(subtract(a, b))), sorted(new Set([...A].filter((x) => !B.has(x)))));
      }),
    );
  });

  it('ranges - takeLowest splits off exactly the n lowest units', () => {
    fc.assert(
      fc.property(arbRanges, fc.integer({ min: 0, max: 80 }), (a, n) => {
        const [taken, rest] = takeLowest(a, n);
        const all = sorted(toSet(a));
        assert.deepEqual(sorted(toSet(taken)), all.slice(0, n));
        assert.deepEqual(sorted(toSet(rest)), all.slice(n));
      }),
    );
  });

  it('ranges - normalise merges adjacent and overlapping ranges', () => {
    assert.deepEqual(normalise([[5, 6], [1, 2], [3, 4], [9, 9], [8, 10]]), [[1, 6], [8, 10]]);
    assert.equal(countUnits([[1, 6], [8, 10]]), 9);
    assert.deepEqual(clampTo([[1, 6], [8, 10]], 8), [[1, 6], [8, 8]]);
  });
});

describe('blockSize', () => {
  it('blockSize - shrinks with what is left, down to single units, never past what is left', () => {
    assert.equal(blockSize(1000, 1), 125);
    assert.equal(blockSize(500_000, 1), MAX_BLOCK_UNITS);
    assert.equal(blockSize(7, 1), 1);
    assert.equal(blockSize(1, 100), 1);
    assert.equal(blockSize(0, 5), 0);
    for (let left = 1; left < 3000; left++) {
      for (const want of [1, 10, 600, 5000, 50_000]) {
        const n = blockSize(left, want);
        const cap = Math.max(MAX_BLOCK_UNITS, Math.min(want, MAX_RATE_BLOCK_UNITS));
        assert.ok(n >= 1 && n <= left && n <= cap, `left ${left} want ${want} gave ${n}`);
      }
    }
  });

  it('blockSize - waiting requests raise the block up to half of what is left', () => {
    assert.equal(blockSize(1000, 600), 500);
    assert.equal(blockSize(1000, 300), 300);
  });

  it("blockSize - a worker's rate raises the cap, up to MAX_RATE_BLOCK_UNITS and half of what is left", () => {
    assert.equal(blockSize(500_000, 15_000), 15_000);
    assert.equal(blockSize(500_000, 1_000_000), MAX_RATE_BLOCK_UNITS);
    assert.equal(blockSize(20_000, 15_000), 10_000);
    // Wanting less than the plain cap changes nothing: an eighth of what is left, up to 1,000.
    assert.equal(blockSize(500_000, 800), MAX_BLOCK_UNITS);
  });
});
