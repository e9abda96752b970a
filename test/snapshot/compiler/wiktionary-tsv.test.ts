// Wiktionary .tsv importer: headword choice per language, the key's forms classified, one entry per part of speech.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { articleRecords, classifyForm, importWiktionaryLine } from '../../../snapshot/compiler/importers/wiktionary-tsv.ts';
import type { WiktionaryContext } from '../../../snapshot/compiler/importers/wiktionary-tsv.ts';
import type { LexRecord } from '../../../snapshot/compiler/records.ts';

const ha = { id: 'wiktionary-ha', language: 'ha', verified: true, headword: 'tone-marked-form' as const };
const xh = { id: 'wiktionary-xh', language: 'xh', verified: true, headword: 'page-title' as const };
const am = { id: 'wiktionary-am', language: 'am', verified: true, headword: 'page-title' as const };
const nfc = (s: string): string => s.normalize('NFC');

/** Real lines of the exports (wiktionary-africa/*.tsv). */
const KARE = 'kare|kàren|kā̀r̃ê|kàryā|kàrē|kā̀r̃ên|kar̃nukā̀\t<i>noun</i><br><ol><li>dog</li><li>(Niger) quarter (of a city)</li></ol>';
const RUWA = 'ruwa|ruwā̀yē|ruwā|ruwan\t<i>noun</i><br><ol><li>water</li><li>liquid, juice</li><li>interest (money)</li><li>color</li><li>blade (of knife or axe)</li></ol><br><i>adv</i><br><ol><li>in the water</li></ol>';
const ABA = 'aba|âba\t<i>verb</i><br><ol><li>(transitive) to share</li><li>(transitive) to distribute</li></ol><br><i>pron</i><br><ol><li>these; class 2 proximal demonstrative.</li></ol>';
const HAYK = 'ሀይቅ|häyḳ\t<i>noun</i><br><ol><li>lake</li></ol>';

function records(line: string, source: WiktionaryContext): LexRecord[] {
  const out = importWiktionaryLine(line, source);
  assert.equal(out.kind, 'lexicon', JSON.stringify(out));
  return out.kind === 'lexicon' ? [out.record, ...(out.extra ?? [])] : [];
}

describe('importWiktionaryLine', () => {
  it('importWiktionaryLine - Hausa: the tone-marked citation form is the headword, the page title and the other forms stay searchable', () => {
    const [dog] = records(KARE, ha);
    assert.equal(dog.exactForm, nfc('kā̀r̃ê'), 'the first listed form that folds to the title');
    assert.equal(dog.toneMarked, true);
    assert.deepEqual(dog.senses, ['dog', '(Niger) quarter (of a city)']);
    const forms = dog.forms ?? [];
    assert.deepEqual(forms.find((f) => f.form === 'kare'), { form: 'kare', kind: 'spelling' }, JSON.stringify(forms));
    assert.deepEqual(forms.find((f) => f.form === nfc('kàrē')), { form: nfc('kàrē'), kind: 'tone-marked' });
    assert.deepEqual(forms.find((f) => f.form === nfc('kàryā')), { form: nfc('kàryā'), kind: 'form' });
  });
  it('importWiktionaryLine - one entry per part of speech, each with the key forms', () => {
    const [noun, adverb] = records(RUWA, ha);
    assert.deepEqual([noun.exactForm, noun.partOfSpeech, adverb.exactForm, adverb.partOfSpeech], [nfc('ruwā'), 'noun', nfc('ruwā'), 'adverb']);
    assert.deepEqual(adverb.senses, ['in the water']);
    const [verb, pronoun] = records(ABA, xh);
    assert.deepEqual([verb.exactForm, verb.partOfSpeech, pronoun.partOfSpeech], ['aba', 'verb', 'pronoun'], 'Xhosa keeps the page title');
    assert.deepEqual(verb.forms, [{ form: nfc('âba'), kind: 'tone-marked' }]);
  });
  it('importWiktionaryLine - Amharic: the Ge\'ez form is the headword and the Latin form its romanisation', () => {
    const [lake] = records(HAYK, am);
    assert.equal(lake.exactForm, 'ሀይቅ');
    assert.deepEqual(lake.forms, [{ form: nfc('häyḳ'), kind: 'romanisation' }]);
  });
  it('importWiktionaryLine - rejects a line without a gloss or without its tab, with a reason', () => {
    assert.deepEqual(importWiktionaryLine('A\t<i>character</i><br><ol></ol>', xh), { kind: 'rejected', reason: 'no English gloss' });
    assert.deepEqual(importWiktionaryLine('no tab here', xh), { kind: 'rejected', reason: 'malformed line (not KEY<TAB>HTML)' });
  });
  it('articleRecords - a StarDict article (no listed forms) reads like a .tsv line', () => {
    const out = articleRecords('hamba', [], '<i>verb</i><br><ol><li>(intransitive) to go, to walk, to move</li></ol>', { ...xh, id: 'wiktionary-zu', language: 'zu' });
    assert.equal(out.kind, 'lexicon');
    assert.deepEqual(out.kind === 'lexicon' ? [out.record.exactForm, out.record.senses] : [], ['hamba', ['(intransitive) to go, to walk, to move']]);
  });
});

describe('classifyForm', () => {
  it('classifyForm - another script is a romanisation or an other-script spelling; a tone-marked title is tone-marked', () => {
    assert.equal(classifyForm('Hausa', 'هَوُسَ'), 'other-script');
    assert.equal(classifyForm('ሀያ', 'haya'), 'romanisation');
    assert.equal(classifyForm('ሀያ', 'ሃያ'), 'form');
    assert.equal(classifyForm('umhlaba', 'úḿhlaba'), 'tone-marked');
    assert.equal(classifyForm('SH', 'sh'), 'spelling');
    assert.equal(classifyForm('ithanga', 'ámáthanga'), 'form');
  });
});
