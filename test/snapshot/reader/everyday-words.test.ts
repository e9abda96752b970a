// The everyday-words fixture over the real-corpora snapshot: for each active language, a common word of the language
// finds its entry in the top 3, and a common English word finds an entry with that meaning first (or right after the
// language's own headwords written as the word), at the targets wherever the data holds the word.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';

import { ENGLISH_TARGET, NATIVE_TARGET, evaluate, failures, loadFixtures } from '../../../scripts/content/everyday-words.ts';
import { evaluateCommonWords, loadCommonWords } from '../../../scripts/content/standard-igbo-common.ts';
import { openSnapshot } from '../../../snapshot/reader/reader.ts';
import { testSnapshotPath } from '../../support/snapshot.ts';

const snap = openSnapshot(testSnapshotPath());
after(() => snap.close());
const active = new Set(snap.languages().filter((l) => l.status === 'active').map((l) => l.code));

describe('everyday words (real corpora)', { skip: snap.meta.sample && 'built from the sample corpus' }, () => {
  it('everyday words - the fixture covers every active language with at least 25 words each way', () => {
    const fixtures = loadFixtures();
    assert.deepEqual(fixtures.map((f) => f.language).sort(), [...active].sort());
    for (const f of fixtures) assert.ok(f.native.length >= 25 && f.english.length >= 25, `${f.language}: ${f.native.length} native, ${f.english.length} English`);
  });
  for (const fixture of loadFixtures()) {
    it(`everyday words - ${fixture.language}: the word's entry in the top 3 for ≥ ${NATIVE_TARGET * 100} %, the meaning first for ≥ ${ENGLISH_TARGET * 100} %`, () => {
      const result = evaluate(snap, fixture);
      assert.ok(result.nativeRate >= NATIVE_TARGET, `native ${(result.nativeRate * 100).toFixed(1)} %\n${failures([result])}`);
      assert.ok(result.englishRate >= ENGLISH_TARGET, `English ${(result.englishRate * 100).toFixed(1)} %\n${failures([result])}`);
    });
  }
  it('everyday words - each of the 100 commonest Standard Igbo words that the lexicon holds finds its entry first', () => {
    const words = loadCommonWords();
    assert.equal(words.length, 100);
    const result = evaluateCommonWords(snap, words);
    assert.equal(result.first, result.held, result.failures.join('\n'));
  });
});
