// Igbo API importer: each known defect of igbo-api/SOURCE.md handled on purpose.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { importIgboRecord } from '../../../snapshot/compiler/importers/igbo-api-json.ts';
import { crossReferenceTarget, splitMergedExamples } from '../../../snapshot/compiler/importers/igbo-definitions.ts';
import type { LexRecord, Outcome } from '../../../snapshot/compiler/records.ts';

const source = { id: 'igbo-api', language: 'ig', verified: true };
const raw = (word: string, wordClass: string, definitions: string[], extra: Record<string, unknown> = {}) => ({
  word,
  wordClass,
  definitions,
  examples: [],
  variations: [],
  stems: null,
  ...extra,
});
function lexicon(outcome: Outcome): LexRecord {
  assert.equal(outcome.kind, 'lexicon', JSON.stringify(outcome));
  return (outcome as { record: LexRecord }).record;
}

describe('importIgboRecord', () => {
  it('importIgboRecord - trims and collapses stray and double spaces in headwords', () => {
    const r = lexicon(importIgboRecord(' ebe  à ', raw(' ebe  à ', 'DEM', ['this place, here']), source));
    assert.equal(r.exactForm, 'ebe à');
  });
  it('importIgboRecord - keeps "-" verb roots as they arrived and maps AV to verb', () => {
    const r = lexicon(importIgboRecord('-tu afà', raw('-tu afà', 'AV', ['extol']), source));
    assert.equal(r.exactForm, '-tu afà');
    assert.equal(r.partOfSpeech, 'verb');
  });
  it('importIgboRecord - turns "see X" definitions into cross-references', () => {
    const r = lexicon(importIgboRecord('a', raw('a', '', ['see e']), source));
    assert.deepEqual(r.crossReferences, [{ target: 'e', text: 'see e' }]);
    assert.deepEqual(r.senses, []);
  });
  it('importIgboRecord - splits examples merged into the definition text', () => {
    const r = lexicon(importIgboRecord('àba', raw('àba', 'NNC', ['flatness; lying flat on the back Ọ tògbòlù àba He lay flat']), source));
    assert.deepEqual(r.senses, ['flatness; lying flat on the back']);
    assert.deepEqual(r.examples.map((e) => [e.text, e.translation]), [['Ọ tògbòlù àba', 'He lay flat']]);
  });
  it('importIgboRecord - rejects records with no definitions or examples, naming letter headings', () => {
    assert.deepEqual(importIgboRecord('A', raw('A', '', []), source), { kind: 'rejected', reason: 'alphabet section heading, not a word' });
    assert.deepEqual(importIgboRecord('-bà', raw('-bà', 'AV', []), source), { kind: 'rejected', reason: 'no definitions or examples' });
  });
  it('importIgboRecord - keeps records with examples but no definitions', () => {
    const r = lexicon(importIgboRecord('ò bụnādụ', raw('ò bụnādụ', 'AV', [], { examples: [{ igbo: 'Ò bụnādụ', english: 'It is so' }] }), source));
    assert.equal(r.examples.length, 1);
  });
  it('importIgboRecord - turns variations into variants and keeps stems', () => {
    const r = lexicon(importIgboRecord('mmilī', raw('mmilī', 'NNC', ['water'], { variations: ['mmiri', 'mmilī'], stems: ['mmi'] }), source));
    assert.deepEqual(r.variants, [{ form: 'mmiri', kind: 'variant' }]);
    assert.deepEqual(r.stems, ['mmi']);
  });
  it('importIgboRecord - rejects malformed records with a reason', () => {
    assert.equal(importIgboRecord('x', { nope: true }, source).kind, 'rejected');
  });
});

describe('crossReferenceTarget', () => {
  it('crossReferenceTarget - strips "under" and trailing sense numbers', () => {
    assert.equal(crossReferenceTarget('see under ọfịa'), 'ọfịa');
    assert.equal(crossReferenceTarget('see -gha 1.B.'), '-gha');
    assert.equal(crossReferenceTarget('see -kpè + 1.'), '-kpè');
    assert.equal(crossReferenceTarget('seed'), null);
  });
});

describe('splitMergedExamples', () => {
  it('splitMergedExamples - pairs several Igbo sentences with their translations', () => {
    const split = splitMergedExamples('call by name; name Kpòọ onye oriì afà Call the thief by name Kpòọ yā afà Name him');
    assert.equal(split.definition, 'call by name; name');
    assert.deepEqual(split.examples, [
      { text: 'Kpòọ onye oriì afà', translation: 'Call the thief by name' },
      { text: 'Kpòọ yā afà', translation: 'Name him' },
    ]);
  });
  it('splitMergedExamples - leaves definitions alone when no translation follows (names, not examples)', () => {
    const text = 'female palace dwarf associated with Ezē Ǹrì';
    assert.deepEqual(splitMergedExamples(text), { definition: text, examples: [] });
    const prose = 'an alūsị of ambivalent character. Agwụ possesses those who are called';
    assert.deepEqual(splitMergedExamples(prose), { definition: prose, examples: [] });
  });
});
