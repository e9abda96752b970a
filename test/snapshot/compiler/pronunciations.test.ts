// Pronunciation importers (WikiPron, MFA, ipa-dict) and the tone check that picks among several pronunciations.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { importIpaDictLine } from '../../../snapshot/compiler/importers/ipa-dict-tsv.ts';
import { importMfaLine } from '../../../snapshot/compiler/importers/mfa-dict.ts';
import { importWikipronLine } from '../../../snapshot/compiler/importers/wikipron-tsv.ts';
import { ipaTones, spellingTones, tonesAgree } from '../../../snapshot/compiler/tones.ts';

const ha = { id: 'wikipron-ha', language: 'ha', verified: true };
const HAUSA = { unmarked: 'H', marks: { grave: 'L', circumflex: 'F' } } as const;
const YORUBA = { unmarked: 'M', marks: { grave: 'L', acute: 'H', macron: 'M' } } as const;

describe('pronunciation importers', () => {
  it('importWikipronLine - joins the segments into one transcription', () => {
    assert.deepEqual(importWikipronLine('kare\tk à ɽ éː', ha), { kind: 'pronunciation', record: { sourceId: 'wikipron-ha', language: 'ha', word: 'kare', ipa: 'kàɽéː' }, notes: [] });
  });
  it('importMfaLine - keeps the tone letters and rejects aligner tokens', () => {
    const out = importMfaLine('ruwa\tɽ ʊ˥ w aː˥', { ...ha, id: 'mfa-hausa' });
    assert.equal(out.kind === 'pronunciation' ? out.record.ipa : '', 'ɽʊ˥waː˥');
    assert.deepEqual(importMfaLine('<unk>\tspn', ha), { kind: 'rejected', reason: 'aligner token, not a word' });
    assert.deepEqual(importMfaLine('[laughter]\tspn', ha), { kind: 'rejected', reason: 'aligner token, not a word' });
  });
  it('importIpaDictLine - drops the slashes and lowers the ASCII capital left inside the IPA', () => {
    const out = importIpaDictLine('Abadoni\t/Aɓaɗoni/', { ...ha, id: 'ipa-dict-swahili', language: 'sw' });
    assert.deepEqual(out, { kind: 'pronunciation', record: { sourceId: 'ipa-dict-swahili', language: 'sw', word: 'Abadoni', ipa: 'aɓaɗoni' }, notes: ['ASCII capital inside the IPA lower-cased'] });
    assert.deepEqual(importIpaDictLine('broken', ha), { kind: 'rejected', reason: 'malformed line (not word<TAB>/IPA/)' });
  });
});

describe('tonesAgree', () => {
  it('tonesAgree - Hausa kàrē (dog) fits kàɽéː, not kàːrêː; kā̀r̃ê (quarter) fits kàːrêː', () => {
    assert.deepEqual(spellingTones('kàrē', HAUSA), ['L', 'H']);
    assert.equal(tonesAgree('kàrē', 'kàɽéː', HAUSA), true);
    assert.equal(tonesAgree('kàrē', 'kàːrêː', HAUSA), false);
    assert.equal(tonesAgree('kā̀r̃ê', 'kàːrêː', HAUSA), true);
  });
  it('tonesAgree - reads MFA tone letters and Yoruba mid tones (unmarked in spelling, macron in IPA)', () => {
    assert.deepEqual(ipaTones('kə˩ɽeː˥', 'H'), ['L', 'H']);
    assert.equal(tonesAgree('kàrē', 'kə˩ɽeː˥', HAUSA), true);
    assert.equal(tonesAgree('omi', 'ōmĩ̄', YORUBA), true);
    assert.equal(tonesAgree('ọmọ', 'ɔ̀mɔ̀', YORUBA), false);
  });
});
