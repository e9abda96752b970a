// Parts of speech as each source means them, importer by importer, on real records of the corpora (copied verbatim):
// the Nguni exports' `conj` Relatives are adjectives, Malagasy active verbs labelled `noun` are verbs, Swahili verbs
// are served by their infinitive, and each format's own tags map onto the shared vocabulary.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import Database from 'better-sqlite3';

import { parseConllu } from '../../../snapshot/compiler/importers/conllu.ts';
import { importReversedFreedictEntry } from '../../../snapshot/compiler/importers/freedict-tei-reversed.ts';
import { importFreedictEntry, parseTeiEntries } from '../../../snapshot/compiler/importers/freedict-tei.ts';
import { importIgboRecord } from '../../../snapshot/compiler/importers/igbo-api-json.ts';
import { importKaikkiRecord } from '../../../snapshot/compiler/importers/kaikki-json.ts';
import { sourceStaging, stagingStatements } from '../../../snapshot/compiler/importers/staging.ts';
import { articleRecords, importWiktionaryLine } from '../../../snapshot/compiler/importers/wiktionary-tsv.ts';
import { FrequencyTable } from '../../../snapshot/compiler/frequency.ts';
import { silentProgress } from '../../../snapshot/compiler/progress.ts';
import type { LexRecord, Outcome } from '../../../snapshot/compiler/records.ts';
import { ReportBuilder } from '../../../snapshot/compiler/report.ts';
import { retagPartsOfSpeech } from '../../../snapshot/compiler/retag.ts';
import { STAGE_TABLES } from '../../../snapshot/compiler/stage-schema.ts';

const source = (id: string, language: string) => ({ id, language, verified: false, headword: 'page-title' as const });

function lexicon(out: Outcome): LexRecord[] {
  assert.equal(out.kind, 'lexicon', JSON.stringify(out));
  return out.kind === 'lexicon' ? [out.record, ...(out.extra ?? [])] : [];
}
const posOf = (out: Outcome): string[] => lexicon(out).map((r) => r.partOfSpeech);

describe('parts of speech: wiktionary-tsv and stardict-tar (Nguni)', () => {
  // Real lines of xhosa-english-wiktionary.tsv (the key's forms left out) and the Zulu StarDict's articles.
  const xh = source('wiktionary-xh', 'xh');
  it('parts of speech - a Nguni conj block that glosses an adjective is a Relative: an adjective', () => {
    assert.deepEqual(posOf(importWiktionaryLine('bomvu\t<i>conj</i><br><ol><li>red</li></ol>', xh)), ['adjective']);
    assert.deepEqual(posOf(articleRecords('mnyama', [], '<i>conj</i><br><ol><li>black</li><li>dark</li><li>deep</li><li>profound</li></ol>', source('wiktionary-zu', 'zu'))), ['adjective']);
  });
  it('parts of speech - a Nguni conj block that glosses a conjunction stays one, and a number is a numeral', () => {
    assert.deepEqual(posOf(importWiktionaryLine('xa\t<i>conj</i><br><ol><li>when, if [+participial]</li></ol>', xh)), ['conjunction']);
    assert.deepEqual(posOf(articleRecords('uma', [], '<i>conj</i><br><ol><li>if</li><li>when</li></ol>', source('wiktionary-zu', 'zu'))), ['conjunction']);
    assert.deepEqual(posOf(importWiktionaryLine('lishumi\t<i>conj</i><br><ol><li>ten</li></ol>', xh)), ['numeral']);
  });
  it('parts of speech - another language reads conj as the conjunction it is', () => {
    assert.deepEqual(posOf(importWiktionaryLine('xa\t<i>conj</i><br><ol><li>when, if [+participial]</li></ol>', source('wiktionary-so', 'so'))), ['conjunction']);
  });
  it('parts of speech - the shared table for the rest: noun, verb, name', () => {
    const hamba = '<i>verb</i><br><ol><li>(intransitive) to go, to walk, to move</li><li>(intransitive) to travel</li></ol>';
    assert.deepEqual(posOf(articleRecords('hamba', [], hamba, source('wiktionary-zu', 'zu'))), ['verb']);
    assert.deepEqual(posOf(importWiktionaryLine('manasa\t<i>noun</i><br><ol><li>wash</li></ol>', source('wiktionary-mg', 'mg'))), ['noun'], 'the importer keeps the export\'s label; the retag step reads it');
  });
});

describe('parts of speech: Malagasy verbs labelled noun (retag step)', () => {
  it('parts of speech - manasa "wash" is a verb, mananasy "pineapple" stays a noun, by the other lexicons\' English', () => {
    const db = new Database(':memory:');
    db.exec("ATTACH ':memory:' AS stage");
    db.exec(STAGE_TABLES);
    const report = new ReportBuilder();
    const imported = { frequency: new FrequencyTable(), sentences: [], aligned: [] };
    // A staging over SQLite as the build opens it; the file it names is only checked to exist.
    const stage = (id: string) =>
      sourceStaging({ sourceId: id, corporaDir: process.cwd(), file: 'package.json', statements: stagingStatements(db), imported, report, progress: silentProgress });
    const mg = stage('wiktionary-mg');
    for (const line of ['manasa\t<i>noun</i><br><ol><li>wash</li></ol>', 'mananasy\t<i>noun</i><br><ol><li>pineapple</li></ol>']) mg.lexicon(importWiktionaryLine(line, source('wiktionary-mg', 'mg')));
    // How other languages gloss the two words (real records of the Xhosa and Swahili exports).
    const xh = stage('wiktionary-xh');
    xh.lexicon(importWiktionaryLine('hlamba\t<i>verb</i><br><ol><li>to wash</li></ol>', source('wiktionary-xh', 'xh')));
    xh.lexicon(importWiktionaryLine('ipayinapile\t<i>noun</i><br><ol><li>pineapple</li></ol>', source('wiktionary-xh', 'xh')));
    retagPartsOfSpeech(db, report);
    const pos = Object.fromEntries(db.prepare("SELECT exact_form, pos FROM stage.lex WHERE language = 'mg'").all().map((r) => [(r as { exact_form: string }).exact_form, (r as { pos: string }).pos]));
    assert.deepEqual(pos, { manasa: 'verb', mananasy: 'noun' });
    assert.equal(report.sources().find((s) => s.source === 'wiktionary-mg')?.notes['noun read as verb (the language\'s morphology and the English gloss)'], 1);
    db.close();
  });
});

describe('parts of speech: freedict-tei (Swahili)', () => {
  // Real records of swh-eng-swh-eng.tei and eng-swh-eng-swh.tei.
  const [la, enda, si, zuri, hakuna] = parseTeiEntries(`<TEI xmlns="http://www.tei-c.org/ns/1.0"><text><body>
<entry xml:id="la-1" n="1"><form xml:lang="sw"><orth>la</orth></form><gramGrp><pos>v</pos></gramGrp><sense><def>eat</def></sense></entry>
<entry xml:id="enda"><form xml:lang="sw"><orth>enda</orth></form><xr type="imp-form">(imp: <ref target="#nenda">nenda</ref>)</xr><gramGrp><pos>v</pos></gramGrp><sense><def>go</def></sense></entry>
<entry><form xml:lang="sw"><orth>si</orth></form><gramGrp><pos>cop</pos><subc>neg</subc></gramGrp><sense><def>am not</def><def>is not</def><def>are not</def></sense></entry>
<entry><form xml:lang="sw"><orth>zuri</orth></form><gramGrp><pos>adj</pos></gramGrp><sense><def>beautiful, fine, handsome, lovely</def></sense></entry>
<entry xml:id="hakuna"><form xml:lang="sw"><orth>hakuna</orth></form><gramGrp><pos>v</pos><subc>infl</subc><gramGrp><gram type="cl-agr">17</gram></gramGrp></gramGrp><sense><def>there is not</def><def>there are not</def></sense></entry>
</body></text></TEI>`);
  const sw = { id: 'freedict-swh-eng', language: 'sw', verified: false };
  it('parts of speech - a verb (v) is served by its infinitive, its stem kept as a form', () => {
    const [kula] = lexicon(importFreedictEntry(la, sw));
    assert.deepEqual([kula.exactForm, kula.partOfSpeech, kula.forms], ['kula', 'verb', [{ form: 'la', kind: 'stem' }]]);
    assert.equal(lexicon(importFreedictEntry(enda, sw))[0].exactForm, 'kwenda');
  });
  it('parts of speech - an inflected verb (subc infl) is served as written, no infinitive made of it', () => {
    assert.deepEqual(lexicon(importFreedictEntry(hakuna, sw)).map((r) => [r.exactForm, r.partOfSpeech, r.forms]), [['hakuna', 'verb', []]]);
  });
  it('parts of speech - a copula (cop) is a verb without an infinitive; an adjective keeps its stem', () => {
    assert.deepEqual(lexicon(importFreedictEntry(si, sw)).map((r) => [r.exactForm, r.partOfSpeech]), [['si', 'verb']]);
    assert.deepEqual(lexicon(importFreedictEntry(zuri, sw)).map((r) => [r.exactForm, r.partOfSpeech]), [['zuri', 'adjective']]);
  });
  it('parts of speech - the reversed edition names the verb by the same infinitive', () => {
    const [eat] = parseTeiEntries('<TEI xmlns="http://www.tei-c.org/ns/1.0"><text><body><entry><form><orth>eat</orth></form><gramGrp><pos>v</pos></gramGrp><sense><def>la</def></sense></entry></body></text></TEI>');
    const [out] = importReversedFreedictEntry(eat, { ...sw, id: 'freedict-eng-swh' });
    assert.deepEqual(out.kind === 'reverse' ? [out.record.form, out.record.partOfSpeech] : out, ['kula', 'verb']);
  });
});

describe('parts of speech: kaikki-json (Yoruba)', () => {
  it('parts of speech - one word, three records: adj an adjective, noun a noun, verb a verb', () => {
    // Real records of kaikki-yoruba-lexicon.json (key "dudu").
    const dudu = (pos: string, glosses: string[]) => ({
      pos,
      etymologyNumber: null,
      headword: 'dudu',
      canonicalForm: { value: 'dúdú', inferenceMethod: 'explicit_canonical_tag', confidence: 1.0, originalValue: 'dudu' },
      standardForms: ['dídú', 'dídún', 'dúdú'],
      glosses,
      altOfTargets: [],
      componentCandidates: [],
      derivedForms: [],
    });
    const yo = { id: 'wiktionary-yoruba', language: 'yo', verified: false };
    assert.deepEqual(posOf(importKaikkiRecord(dudu('adj', ['black; dark; deep green; deep blue', 'dark-skinned']), yo)), ['adjective']);
    assert.deepEqual(posOf(importKaikkiRecord(dudu('noun', ['blackness; black colour', 'something that is black or dark in colour']), yo)), ['noun']);
    assert.deepEqual(posOf(importKaikkiRecord(dudu('verb', ['to be black, dark, deep green or deep blue']), yo)), ['verb']);
  });
});

describe('parts of speech: igbo-api-json and conllu', () => {
  const ig = { id: 'igbo-api', language: 'ig', verified: false };
  it("parts of speech - Williamson's word classes: AV a verb, CJN a conjunction, NNC a noun, none other", () => {
    // Real records of ig-en.json.
    assert.deepEqual(posOf(importIgboRecord('-bụ', { word: '-bụ', wordClass: 'AV', definitions: ['be (used to identify two noun phrases with each other)', 'eject; project', 'scramble'], examples: [{ igbo: 'Abū m onye isī', english: 'I am the leader' }], variations: [], stems: [] }, ig)), ['verb']);
    assert.deepEqual(posOf(importIgboRecord('mà', { word: 'mà', wordClass: 'CJN', definitions: ['but; if; whether'], examples: [], variations: [], stems: null }, ig)), ['conjunction']);
    assert.deepEqual(posOf(importIgboRecord('ụnò', { word: 'ụnò', wordClass: 'NNC', definitions: ['house; household; building'], examples: [], variations: [], stems: null }, ig)), ['noun']);
    assert.deepEqual(posOf(importIgboRecord('nwa', { word: 'nwa', wordClass: '', definitions: ['see nnwa'], examples: [], variations: [], stems: null }, ig)), ['other']);
  });
  it('parts of speech - CoNLL-U UPOS: PRON a pronoun, NOUN a noun, ADP a preposition, PUNCT no lemma', () => {
    // A real sentence of yo_ytb-ud-test.conllu (GEN_1.1), its first tokens.
    const lines = [
      '# sent_id = GEN_1.1',
      '# text = Ní ìbẹ̀rẹ̀ ohun gbogbo.',
      '1\tNí\tní\tADP\t_\t_\t2\tcase\t_\tGloss=in|Ref=GEN_1.1',
      '2\tìbẹ̀rẹ̀\tìbẹ̀rẹ̀\tNOUN\t_\t_\t6\tobl\t_\tGloss=beginning|Ref=GEN_1.1',
      '3\tohun\tohun\tNOUN\t_\t_\t5\tnmod\t_\tGloss=things|Ref=GEN_1.1',
      '4\tgbogbo\tgbogbo\tDET\t_\t_\t3\tdet\t_\tGloss=all|Ref=GEN_1.1',
      '5\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\tRef=GEN_1.1',
      '',
    ];
    const [sentence] = [...parseConllu(lines, { id: 'ud-yoruba-ytb', language: 'yo', verified: false })];
    assert.equal(sentence.kind, 'sentence');
    if (sentence.kind !== 'sentence') return;
    assert.deepEqual(
      sentence.record.lemmas.map((l) => [l.lemma, l.partOfSpeech, l.gloss]),
      [['ní', 'preposition', 'in'], [ 'ìbẹ̀rẹ̀'.normalize('NFC'), 'noun', 'beginning'], ['ohun', 'noun', 'things'], ['gbogbo', 'determiner', 'all']],
    );
  });
});
