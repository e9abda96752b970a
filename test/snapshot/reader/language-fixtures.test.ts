// Search quality per language on the real corpora: queries drawn from the data and checked by reading.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';

import { openSnapshot } from '../../../snapshot/reader/reader.ts';
import type { WordSummary } from '../../../services/shared/schemas.ts';
import { testSnapshotPath } from '../../support/snapshot.ts';

const snap = openSnapshot(testSnapshotPath());
after(() => snap.close());
const nfc = (s: string): string => s.normalize('NFC');
const top = (q: string, language: string, limit = 5): WordSummary[] => snap.search({ q, language, page: 1, limit }).items;
const show = (items: readonly WordSummary[]): string => JSON.stringify(items.map((i) => [i.exactForm, i.matchType, i.glosses.slice(0, 2)]));
/** The first result's form and how it matched. */
const first = (q: string, language: string): [string | undefined, string | undefined] => {
  const [hit] = top(q, language);
  return [hit?.exactForm, hit?.matchType];
};

describe('search quality per language (real corpora)', { skip: snap.meta.sample && 'built from the sample corpus' }, () => {
  it('Hausa - ruwa finds ruwā "water", kasa finds ƙasà without its hooked letter, and water finds ruwā', () => {
    assert.deepEqual(first('ruwa', 'ha'), [nfc('ruwā'), 'folded'], show(top('ruwa', 'ha')));
    assert.deepEqual(first('kasa', 'ha'), [nfc('ƙasà'), 'folded'], show(top('kasa', 'ha')));
    assert.deepEqual(first(nfc('ƙasà'), 'ha'), [nfc('ƙasà'), 'exact']);
    assert.equal(top('water', 'ha')[0]?.exactForm, nfc('ruwā'), show(top('water', 'ha')));
    assert.equal(top('kasa', 'ha')[0]?.pronunciation, 'kʼásà', 'the pronunciation whose tones fit ƙasà');
  });
  it('Zulu - a verb form finds its verb, a plural its noun, and water finds amanzi', () => {
    assert.deepEqual(first('abahamba', 'zu'), ['hamba', 'form'], show(top('abahamba', 'zu')));
    assert.deepEqual(first('abantu', 'zu'), ['umuntu', 'form'], show(top('abantu', 'zu')));
    assert.equal(top('water', 'zu')[0]?.exactForm, 'amanzi', show(top('water', 'zu')));
  });
  it('Swahili - watoto finds mtoto (its plural) and water finds maji', () => {
    assert.deepEqual(first('watoto', 'sw'), ['mtoto', 'form'], show(top('watoto', 'sw')));
    assert.equal(top('water', 'sw')[0]?.exactForm, 'maji', show(top('water', 'sw')));
    assert.equal(top('maji', 'sw')[0]?.pronunciation, 'mɑdʒi');
  });
  it('Afrikaans, Malagasy, Xhosa, Swati, Kikuyu, Oromo - the word for water, by its English gloss and as written', () => {
    assert.deepEqual(first('huis', 'af'), ['huis', 'exact']);
    assert.ok(top('water', 'af').slice(0, 2).every((i) => i.exactForm === 'water' && i.matchType === 'exact'), show(top('water', 'af')));
    assert.ok(top('water', 'mg', 2).some((i) => i.exactForm === 'rano'), show(top('water', 'mg')));
    assert.deepEqual(first('rano', 'mg'), ['rano', 'exact']);
    assert.equal(top('water', 'xh')[0]?.exactForm, 'amanzi', show(top('water', 'xh')));
    assert.equal(top('water', 'ss')[0]?.exactForm, 'emanti', show(top('water', 'ss')));
    assert.equal(top('water', 'ki')[0]?.exactForm, nfc('maĩ'), show(top('water', 'ki')));
    assert.deepEqual(first('maai', 'ki'), [nfc('maĩ'), 'form'], 'maaĩ, a form the key lists, typed without its tilde');
    assert.ok(top('water', 'om', 2).some((i) => i.exactForm === 'bishaan'), show(top('water', 'om')));
  });
  it('Igbo - water lists mmilī first, then glosses that begin with water, before glosses that only mention it', () => {
    const water = top('water', 'ig', 40);
    assert.equal(water[0]?.exactForm, nfc('mmilī'), show(water));
    const at = (form: string): number => water.findIndex((w) => w.exactForm === nfc(form));
    // Read in the data: "water pot", "water python", "water welling from a spring" begin with water; -lù's
    // "become soft; soften; (of pears) soften by warming (in hot ashes, water, etc.)" only mentions it.
    for (const form of ['ìtè mmīli', 'eke mmīli', 'ǹgènè']) {
      assert.ok(at(form) > 0 && at(form) < at('-lù'), `${form} before -lù: ${show(water.slice(0, 12))}`);
    }
  });
  it('Igbo - Standard spellings find the Onitsha entries: ihe finds ife "thing" as written, ahia finds afịa "market" folded', () => {
    // The Standard spelling as Standard text writes it (ihe, ahịa) is a spelling of the word: an exact match.
    assert.deepEqual(first('ihe', 'ig'), ['ife', 'exact'], show(top('ihe', 'ig')));
    assert.deepEqual(first(nfc('ahịa'), 'ig'), [nfc('afịa'), 'exact'], show(top(nfc('ahịa'), 'ig')));
    assert.deepEqual(first('ahia', 'ig'), [nfc('afịa'), 'variant'], show(top('ahia', 'ig')));
    const entry = snap.entry(top('ahia', 'ig')[0].slug);
    const standard = entry?.variants.find((v) => v.kind === 'standard-spelling');
    assert.equal(standard?.form, nfc('ahịa'), JSON.stringify(entry?.variants));
    assert.match(standard?.note ?? '', /f → h.*attested in NTREX-128.*with the entry's meaning/, 'the full entry says where the spelling comes from');
  });
  it('Yoruba - water finds omi, with its WikiPron pronunciation named with source and licence', () => {
    assert.equal(top('water', 'yo')[0]?.exactForm, 'omi');
    const omi = snap.entry(top('water', 'yo')[0].slug);
    assert.equal(omi?.pronunciation, nfc('ōmĩ̄'));
    assert.deepEqual(omi?.pronunciations[0] && [omi.pronunciations[0].source.id, omi.pronunciations[0].licence.spdx], ['wikipron-yo', 'CC-BY-SA-4.0']);
  });
  it('examples - NTREX-128 sentences attach with their English line, source and licence', () => {
    const [hamba] = top('hamba', 'zu');
    const entry = snap.entry(hamba.slug);
    const ntrex = entry?.examples.filter((e) => e.source.id === 'ntrex-zu') ?? [];
    assert.ok(ntrex.length > 0 && ntrex.length <= 3, JSON.stringify(entry?.examples));
    for (const e of ntrex) {
      assert.ok(e.translation && e.reference?.startsWith('newstest2019 line '), JSON.stringify(e));
      assert.equal(e.licence.spdx, 'CC-BY-SA-4.0');
      assert.ok(/\bhamba\b/i.test(e.text) || e.text.length > 0);
    }
  });
});
