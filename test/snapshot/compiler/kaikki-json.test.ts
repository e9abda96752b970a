// Wiktionary/kaikki importer: alternative spellings, Ajami letters, inferred forms, parts of speech.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { ajamiEquivalents, importKaikkiRecord } from '../../../snapshot/compiler/importers/kaikki-json.ts';
import type { AltRecord, LexRecord } from '../../../snapshot/compiler/records.ts';

const source = { id: 'wiktionary-yoruba', language: 'yo', verified: true };
const raw = (value: string, pos: string, glosses: string[], extra: Record<string, unknown> = {}) => ({
  pos,
  etymologyNumber: '1',
  headword: value,
  canonicalForm: { value, inferenceMethod: 'explicit_canonical_tag', confidence: 1, originalValue: value },
  standardForms: [value],
  glosses,
  altOfTargets: [],
  componentCandidates: [],
  derivedForms: [],
  ...extra,
});

describe('importKaikkiRecord', () => {
  it('importKaikkiRecord - imports the tone-marked canonical form with mapped part of speech and etymology', () => {
    const outcome = importKaikkiRecord(raw('ọ̀run', 'noun', ['heaven'], { headword: 'ọrun', etymologyNumber: '2' }), source);
    assert.equal(outcome.kind, 'lexicon');
    const r = (outcome as { record: LexRecord }).record;
    assert.equal(r.exactForm, 'ọ̀run'.normalize('NFC'));
    assert.equal(r.etymologyNumber, 2);
    assert.equal(r.partOfSpeech, 'noun');
    assert.equal(r.verified, true);
  });
  it('importKaikkiRecord - maps name, character and prep_phrase onto the shared vocabulary', () => {
    const pos = (p: string) => ((importKaikkiRecord(raw('x', p, ['g']), source) as { record: LexRecord }).record.partOfSpeech);
    assert.equal(pos('name'), 'proper-noun');
    assert.equal(pos('character'), 'letter');
    assert.equal(pos('prep_phrase'), 'phrase');
    assert.equal(pos('something-new'), 'other');
  });
  it('importKaikkiRecord - makes altOfTargets records alternative spellings with a fallback entry', () => {
    const outcome = importKaikkiRecord(raw('ọọ́', 'noun', ['alternative form of ọwọ́ (“hand”)'], { altOfTargets: ['ọwọ́'] }), source);
    assert.equal(outcome.kind, 'alt');
    const alt = (outcome as { record: AltRecord }).record;
    assert.deepEqual(alt.targets, ['ọwọ́'.normalize('NFC')]);
    assert.equal(alt.kind, 'alternative-spelling');
    assert.notEqual(alt.fallback, null);
  });
  it('importKaikkiRecord - turns Ajami letters into spellings of their Latin letter, never own entries', () => {
    const outcome = importKaikkiRecord(
      raw('ف', 'character', ['The sixth letter of the Yoruba alphabet, written in the Arabic script.'], { standardForms: ['equivalent F', 'f', 'ف'] }),
      source,
    );
    assert.equal(outcome.kind, 'alt');
    const alt = (outcome as { record: AltRecord }).record;
    assert.deepEqual(alt.targets, ['F', 'f']);
    assert.equal(alt.fallback, null);
  });
  it('ajamiEquivalents - reads the Latin letter from the gloss when standard forms lack it', () => {
    assert.deepEqual(ajamiEquivalents(['وْ'], ['The sixteenth letter of the Yoruba alphabet in the ajami script, equivalent to Latin script o.']), ['o']);
  });
  it('importKaikkiRecord - serves inferred forms (confidence < 1) as unverified', () => {
    const outcome = importKaikkiRecord(raw('ìwé', 'noun', ['book'], { canonicalForm: { value: 'ìwé', confidence: 0.5 } }), source);
    assert.equal((outcome as { record: LexRecord }).record.verified, false);
  });
  it('importKaikkiRecord - rejects records without glosses and malformed records', () => {
    assert.deepEqual(importKaikkiRecord(raw('gbé', 'particle', []), source), { kind: 'rejected', reason: 'no glosses' });
    assert.equal(importKaikkiRecord({ pos: 1 }, source).kind, 'rejected');
  });
  it('importKaikkiRecord - keeps derived forms and components for linking', () => {
    const r = (importKaikkiRecord(raw('fà', 'verb', ['to pull'], { derivedForms: ['ìfà'], componentCandidates: [{ form: 'fà', provenance: 'x' }] }), source) as { record: LexRecord }).record;
    assert.deepEqual(r.derived, ['ìfà']);
    assert.deepEqual(r.components, []); // a record is not its own component
  });
});
