// Answers people can trust, on the real-corpora snapshot: the meaning before a word that only shares its letters,
// examples and pronunciations on their own word, frequencies not pooled over homographs, no empty Igbo gloss,
// parts of speech as the sources mean them, Swahili as it is looked up.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';

import type { Entry, WordSummary } from '../../../services/shared/schemas.ts';
import { languageRules } from '../../../snapshot/languages/index.ts';
import { tonesAgree } from '../../../snapshot/compiler/tones.ts';
import { hasToneMarks } from '../../../snapshot/compiler/written-forms.ts';
import type { BuildReport } from '../../../snapshot/compiler/report.ts';
import { openSnapshot } from '../../../snapshot/reader/reader.ts';
import { testSnapshotPath } from '../../support/snapshot.ts';

const file = testSnapshotPath();
const snap = openSnapshot(file);
after(() => snap.close());
const nfc = (s: string): string => s.normalize('NFC');
const top = (q: string, language: string, limit = 5): WordSummary[] => snap.search({ q, language, page: 1, limit }).items;
const show = (items: readonly WordSummary[]): string => JSON.stringify(items.map((i) => [i.exactForm, i.matchType, i.glosses.slice(0, 2)]));
/** The entries of a language whose exact form is `form`. */
const entries = (form: string, language: string): Entry[] =>
  top(form, language, 20)
    .filter((i) => i.exactForm === nfc(form))
    .map((i) => snap.entry(i.slug))
    .filter((e): e is Entry => e !== undefined);

/** Every entry of every active language, read once. */
function* everyEntry(): Generator<Entry> {
  for (const language of snap.languages().filter((l) => l.status === 'active')) {
    for (let page = 1; ; page++) {
      const items = snap.search({ language: language.code, page, limit: 100 }).items;
      for (const item of items) {
        const entry = snap.entry(item.slug);
        if (entry) yield entry;
      }
      if (items.length < 100) break;
    }
  }
}
const all = snap.meta.sample ? [] : [...everyEntry()];

describe('answers (real corpora)', { skip: snap.meta.sample && 'built from the sample corpus' }, () => {
  it('answers - an English word finds its meaning before words that only share its letters', () => {
    for (const [q, language, form] of [
      ['dog', 'sw', 'mbwa'],
      ['sun', 'sw', 'jua'],
      ['day', 'ha', 'rānā'],
      ['man', 'sw', 'mwanamume'],
      ['go', 'sw', 'kwenda'],
      ['go', 'zu', 'hamba'],
      ['go', 'ig', '-ga'],
      ['man', 'ig', 'nwokē'],
      ['eye', 'yo', 'ojú'],
    ] as const) {
      assert.equal(top(q, language)[0]?.exactForm, nfc(form), `${q} (${language}): ${show(top(q, language))}`);
    }
    // A word of the language written exactly as the query may come first, the meaning right after it.
    const sun = top('sun', 'yo', 10);
    const firstMeaning = sun.findIndex((i) => i.matchType !== 'exact');
    assert.ok(sun.slice(0, firstMeaning).every((i) => i.exactForm === 'sun') && sun[firstMeaning]?.matchType === 'meaning', show(sun));
  });
  it('answers - Standard Igbo finds the Onitsha entry first, and nwa the child', () => {
    for (const [q, form] of [
      ['ụlọ', 'ụnò'],
      ['nri', 'nni'],
      ['ihe', 'ife'],
      ['mmiri', 'mmilī'],
    ] as const) {
      assert.equal(top(nfc(q), 'ig')[0]?.exactForm, nfc(form), `${q}: ${show(top(nfc(q), 'ig'))}`);
    }
    assert.ok(top('nwa', 'ig', 3).some((i) => i.exactForm === nfc('ǹnwa')), show(top('nwa', 'ig')));
  });
  it('answers - Standard Igbo written with underdots finds the entry of those letters before its homographs (bụ, dị, ọchịchị)', () => {
    for (const [q, form, other] of [
      ['bụ', '-bụ', '-bu'],
      ['dị', '-dị', 'di'],
      ['ọchịchị', 'òchịchị', 'òchìchì'],
    ] as const) {
      const items = top(nfc(q), 'ig', 10);
      assert.equal(items[0]?.exactForm, nfc(form), `${q}: ${show(items)}`);
      assert.ok(items.some((i) => i.exactForm === nfc(other)), `${q} still finds ${other}: ${show(items)}`);
    }
  });
  it('answers - no entry is served without an English gloss, and none claims a review no source made', () => {
    assert.ok(all.length > 30_000, `${all.length} entries`);
    assert.deepEqual(all.filter((e) => e.glosses.length === 0).map((e) => `${e.language} ${e.exactForm}`), []);
    assert.deepEqual(all.filter((e) => e.isVerified).map((e) => `${e.language} ${e.exactForm}`), []);
  });
  it('answers - every Igbo entry says that its lexicon is the Onitsha dialect, and no other entry names a dialect', () => {
    const igbo = all.filter((e) => e.language === 'ig');
    assert.ok(igbo.length > 5_000, `${igbo.length} Igbo entries`);
    assert.deepEqual(igbo.filter((e) => e.dialect?.name !== 'Onitsha').map((e) => e.exactForm), []);
    assert.match(igbo[0].dialect?.note ?? '', /Onitsha dialect/);
    assert.deepEqual(all.filter((e) => e.language !== 'ig' && e.dialect !== null).map((e) => `${e.language} ${e.exactForm}`), []);
  });
  it('answers - every entry, example and pronunciation served names its source and licence', () => {
    const named = (x: { source: { id: string; name: string }; licence: { spdx: string; url: string } }): boolean =>
      x.source.id !== '' && x.source.name !== '' && x.licence.spdx !== '' && x.licence.url !== '';
    const unnamed = all.flatMap((e) => [e, ...e.examples, ...e.pronunciations].filter((x) => !named(x)).map(() => `${e.language} ${e.exactForm}`));
    assert.deepEqual(unnamed, []);
  });
  it('answers - an example is of the word it is attached to (ọrụ, afọ, fā̀rā)', () => {
    const texts = (form: string, language: string): string[] => entries(form, language).flatMap((e) => e.examples.map((x) => x.text));
    assert.ok(!texts('ọrụ', 'ig').some((t) => t.includes('Iweghachite ya bụ ọrụ')), 'ọrụ "vulva" does not carry "To recover it is a duty"');
    assert.ok(!texts('afọ', 'ig').some((t) => t.includes('Sims dị afọ')), 'afọ "stomach" does not carry an age');
    assert.ok(!texts('fā̀rā', 'ha').some((t) => /\bza a fara\b/i.test(t)), 'fā̀rā "locust" does not carry "za a fara" (begin)');
  });
  it("answers - no Yoruba or Hausa entry shows a pronunciation whose tones contradict its own tone marks", () => {
    const wrong: string[] = [];
    for (const e of all) {
      const { tones } = languageRules(e.language);
      if (!tones || !hasToneMarks(e.exactForm)) continue;
      for (const p of e.pronunciations) if (!tonesAgree(e.exactForm, p.ipa, tones)) wrong.push(`${e.exactForm} /${p.ipa}/`);
    }
    assert.deepEqual(wrong, []);
    const soap = entries('ọṣẹ', 'yo').find((e) => e.glosses.includes('soap'));
    assert.deepEqual(soap?.pronunciations.map((p) => p.ipa), [nfc('ɔ̄ʃɛ̄')], 'ọṣẹ "soap": its own transcription only');
    const mouth = entries('bā̀kī', 'ha')[0];
    assert.ok(mouth && mouth.pronunciations.every((p) => !p.ipa.includes('kʼ')), `bā̀kī "mouth" without baƙī's ejective: ${JSON.stringify(mouth?.pronunciations.map((p) => p.ipa))}`);
  });
  it('answers - a frequency is the word\'s own: tì "push" does not take ti\'s rank, and ọjọ́ "day" is found for ojo', () => {
    const push = entries('tì', 'yo').find((e) => e.glosses.some((g) => g.includes('push')));
    assert.ok(push && (push.frequencyRank === null || push.frequencyRank > 100), `tì: ${push?.frequencyRank}`);
    assert.ok(top('ojo', 'yo', 3).some((i) => i.exactForm === nfc('ọjọ́')), show(top('ojo', 'yo')));
  });
  it("answers - Hausa's hooked letters are letters, not mis-encoding, in the frequency list", () => {
    const reportFile = `${file}.report.json`;
    if (!existsSync(reportFile)) return;
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as BuildReport;
    const hausa = report.sources.find((s) => s.source === 'unilex-frequency-ha');
    assert.deepEqual(Object.keys(hausa?.rejectedBy ?? {}).filter((r) => /U\+(0253|0257|0199|01B4|0181|018A|0198|01B3)/.test(r)), []);
    for (const l of report.languages.filter((x) => x.status === 'active')) assert.equal(l.emptyGlosses, 0, l.code);
  });
  it('answers - parts of speech as the sources mean them, and Swahili as it is looked up', () => {
    assert.equal(top('mnyama', 'zu')[0]?.partOfSpeech, 'adjective');
    assert.equal(top('bomvu', 'xh')[0]?.partOfSpeech, 'adjective');
    assert.equal(top('manasa', 'mg')[0]?.partOfSpeech, 'verb');
    for (const [q, form, type] of [
      ['kula', 'kula', 'exact'],
      ['kunywa', 'kunywa', 'exact'],
      ['kwenda', 'kwenda', 'exact'],
      ['nzuri', 'zuri', 'form'],
      ['la', 'kula', null],
    ] as const) {
      const hits = top(q, 'sw');
      const hit = hits.find((i) => i.exactForm === form);
      assert.ok(hit && (type === null || hit.matchType === type), `${q}: ${show(hits)}`);
    }
  });
});
