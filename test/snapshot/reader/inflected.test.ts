// Inflected forms lead to their entry through the search (snapshot/reader/inflected.ts) on the real corpora: the
// reading is kept only where the lexicon holds the headword with the right part of speech, ranked below the forms a
// source lists and above prefixes, and kept to the words of the language by scope.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { MATCH_WEIGHT } from '../../../snapshot/format/format.ts';
import { openSnapshot } from '../../../snapshot/reader/reader.ts';
import type { Snapshot } from '../../../snapshot/reader/snapshot.ts';
import { testSnapshotPath } from '../../support/snapshot.ts';

let snap: Snapshot;
before(() => {
  snap = openSnapshot(testSnapshotPath());
});
after(() => snap?.close());

const firstOf = (q: string, language: string, scope: 'all' | 'headword' | 'meaning' = 'headword') =>
  snap.search({ q, language, scope, page: 1, limit: 5 }).items;

describe('inflected forms (real corpora)', () => {
  it('inflected forms - Swahili, Xhosa and Igbo forms find their entry with matchType inflected', (t) => {
    if (snap.meta.sample) return t.skip('built from the sample corpus');
    const CASES: [q: string, language: string, exactForm: string, partOfSpeech: string][] = [
      ['ninakula', 'sw', 'kula', 'verb'],
      ['nimekupenda', 'sw', 'kupenda', 'verb'],
      ['nchini', 'sw', 'nchi', 'noun'],
      ['ndiyabulela', 'xh', 'bulela', 'verb'],
      ['ukuthi', 'zu', 'thi', 'verb'],
      ['nwere', 'ig', '-nwe', 'other'],
      ['kwughị', 'ig', '-kwu', 'affix'],
    ];
    for (const [q, language, exactForm, partOfSpeech] of CASES) {
      const [first] = firstOf(q, language);
      assert.ok(first, `${q}: nothing found`);
      assert.equal(first.matchType, 'inflected', `${q}: ${JSON.stringify(first)}`);
      assert.equal(first.exactForm, exactForm, `${q}: ${JSON.stringify(first)}`);
      assert.equal(first.partOfSpeech, partOfSpeech, `${q}: ${JSON.stringify(first)}`);
      assert.ok(first.score >= MATCH_WEIGHT.inflected && first.score < MATCH_WEIGHT.form, `${q}: score ${first.score}`);
    }
  });

  it('inflected forms - a form a UniMorph table lists is found as that form, before any reading', (t) => {
    if (snap.meta.sample) return t.skip('built from the sample corpus');
    for (const [q, exactForm] of [['anasoma', 'kusoma'], ['walikwenda', 'kwenda']]) {
      const [first] = firstOf(q, 'sw');
      assert.equal(first?.matchType, 'form', `${q}: ${JSON.stringify(first)}`);
      assert.equal(first?.exactForm, exactForm, `${q}: ${JSON.stringify(first)}`);
    }
  });

  it('inflected forms - words that are no such forms find no reading', (t) => {
    if (snap.meta.sample) return t.skip('built from the sample corpus');
    const NONE: [q: string, language: string, why: string][] = [
      ['ngaleyo', 'zu', '"with that": not a verb -ala with -e and -yo'],
      ['ahụ', 'ig', '"that": not a participle of -fụ "see"'],
      ['role', 'af', 'the plural of rol is rolle'],
      ['visie', 'af', '"vision", not a diminutive of vis'],
      ['alipa', 'sw', '-lipa "pay": a one-syllable -pa would keep ku- after -li-'],
      ['ninakulx', 'sw', 'no stem'],
      ['era', 'ig', 'e- does not go before a: no participle of -ra "comb"'],
      ['atule', 'ig', 'a-tụle "consider": a- … -le is no perfect of -tu'],
      ['daruru', 'ig', 'the Onitsha -dàlụ has an underdot the text does not write'],
      ['izindiza', 'zu', '"aeroplanes": i- zi- spells the noun prefix, not a subject and an object before -ndiza "fly"'],
    ];
    for (const [q, language, why] of NONE) {
      const items = snap.search({ q, language, page: 1, limit: 50 }).items;
      assert.ok(items.every((w) => w.matchType !== 'inflected'), `${q} (${why}): ${JSON.stringify(items.slice(0, 3))}`);
    }
  });

  it('inflected forms - a root\'s tone homographs come in the order the frequency credited to its forms gives', (t) => {
    if (snap.meta.sample) return t.skip('built from the sample corpus');
    // Standard Igbo writes no tones: jiri, were and amaghị could be any homograph of their root.
    const CASES: [q: string, first: string, second: string][] = [
      ['jiri', '-jì', '-ji'],
      ['were', '-wè', '-we'],
      ['amaghị', '-ma', '-mà'],
    ];
    for (const [q, first, second] of CASES) {
      const found = firstOf(q, 'ig').filter((w) => w.matchType === 'inflected').map((w) => w.exactForm);
      assert.deepEqual(found.slice(0, 2), [first, second], `${q}: ${found.join(', ')}`);
    }
  });

  it('inflected forms - an entry found as written or as a listed form keeps that match type', (t) => {
    if (snap.meta.sample) return t.skip('built from the sample corpus');
    assert.equal(firstOf('watoto', 'sw')[0]?.matchType, 'form', 'FreeDict lists watoto as the plural of mtoto');
    assert.equal(firstOf('kusoma', 'sw')[0]?.matchType, 'exact');
  });

  it('inflected forms - scope headword and all include them, scope meaning does not', (t) => {
    if (snap.meta.sample) return t.skip('built from the sample corpus');
    assert.ok(firstOf('nimekupenda', 'sw', 'all').some((w) => w.matchType === 'inflected'));
    assert.ok(firstOf('nimekupenda', 'sw', 'headword').some((w) => w.matchType === 'inflected'));
    assert.ok(firstOf('nimekupenda', 'sw', 'meaning').every((w) => w.matchType !== 'inflected'));
  });

  it('inflected forms - the language and part-of-speech filters apply to the readings', (t) => {
    if (snap.meta.sample) return t.skip('built from the sample corpus');
    assert.ok(firstOf('anasoma', 'zu').every((w) => w.language === 'zu'));
    assert.equal(snap.search({ q: 'anasoma', language: 'sw', partOfSpeech: 'noun', page: 1, limit: 5 }).items.length, 0);
    assert.equal(snap.search({ q: 'anasoma', page: 1, limit: 5 }).items[0]?.exactForm, 'kusoma', 'without a language, every analysing language is asked');
  });
});
