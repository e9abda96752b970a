// What the pages say about a result or an entry is true of it: "starts with" only when the form does, the
// headword's spelling where the source writes its own, the spelling a search matched, and the language of
// every word quoted in English text where the source tells it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { openSnapshot } from '../../snapshot/reader/reader.ts';
import type { Snapshot } from '../../snapshot/reader/snapshot.ts';
import { HeadwordSpellings, matchedSpelling } from '../../services/api/web/headword-spelling.ts';
import { matchLabel } from '../../services/api/web/match-label.ts';
import { entryPage } from '../../services/api/web/pages/entry.ts';
import { searchPage } from '../../services/api/web/pages/search.ts';
import { markQuotedForms } from '../../services/api/web/quoted-forms.ts';
import { testSnapshotPath } from '../support/snapshot.ts';
import { ASSETS, HOSTILE, LANGUAGES, summary, yorubaEntry } from './fixtures.ts';

let snapshot: Snapshot;
before(() => {
  snapshot = openSnapshot(testSnapshotPath());
});
after(() => snapshot?.close());

describe('match labels', () => {
  it('match labels - a phrase that only contains the search says so; one that starts with it says that', () => {
    const cases: Array<[string, string, string, string]> = [
      ['isi egō', 'ig', 'ego', 'contains your search'],
      ['-zụ egō', 'ig', 'ego', 'contains your search'],
      ['ego chī', 'ig', 'ego', 'starts with your search'],
      ['ọmọdé', 'yo', 'omo', 'starts with your search'],
      ['ìyá ọmọ', 'yo', 'omo', 'contains your search'],
      // The l/r key: Standard Igbo spelling typed, Onitsha spelling stored.
      ['mmilī ọcha', 'ig', 'mmiri', 'starts with your search'],
    ];
    for (const [form, language, q, label] of cases) {
      const word = summary({ exactForm: form, headword: form, language, matchType: 'prefix' });
      assert.equal(matchLabel(word, q), label, `${form} for ${q}`);
    }
    assert.equal(matchLabel(summary({ matchType: 'folded' }), 'omo'), 'matched without tone marks');
  });

  it('match labels - every prefix result of "ego" in the real snapshot is labelled by whether its form starts with it', () => {
    const page = snapshot.search({ q: 'ego', language: 'ig', page: 1, limit: 50 });
    const labels = page.items.filter((w) => w.matchType === 'prefix').map((w) => `${w.exactForm}: ${matchLabel(w, 'ego')}`);
    assert.ok(labels.includes('isi egō: contains your search'), labels.join('\n'));
    assert.ok(labels.includes('ego chī: starts with your search'), labels.join('\n'));
  });
});

describe('quoted forms', () => {
  it('quoted forms - marks the entry\'s own forms as whole words, longest first, and leaves English alone', () => {
    const marked = markQuotedForms('(also mmā àbànì) a sword; see àbànì ukwu, not àbànìx', ['àbànì', 'àbànì ukwu', 'a'], 'ig').value;
    assert.equal(marked, '(also mmā <span lang="ig">àbànì</span>) a sword; see <span lang="ig">àbànì ukwu</span>, not àbànìx');
  });

  it('quoted forms - escapes the text and the forms', () => {
    const marked = markQuotedForms(`${HOSTILE} ọmọ`, ['ọmọ', HOSTILE], 'yo').value;
    assert.ok(!marked.includes('<script>') && !marked.includes('<img'), marked);
    assert.ok(marked.endsWith(' <span lang="yo">ọmọ</span>'), marked);
  });

  it('quoted forms - an entry page marks a form quoted in a gloss or sense with the entry\'s language', () => {
    const entry = yorubaEntry({ glosses: ['child (compare ọmọdé)'], senses: [{ number: 1, definition: 'child; see ọmọbìnrin' }] });
    const page = entryPage({ assets: ASSETS, entry }).value;
    assert.match(page, /<strong>In English:<\/strong> child \(compare <span lang="yo">ọmọdé<\/span>\)/, page);
    assert.match(page, /<li value="1">child; see <span lang="yo">ọmọbìnrin<\/span><\/li>/, page);
  });
});

describe('headword spellings', () => {
  it('headword spellings - an Igbo entry from Williamson\'s dictionary says its headword is the Onitsha spelling', () => {
    const spellings = new HeadwordSpellings(snapshot);
    const entry = snapshot.entry(snapshot.search({ q: 'mmiri', language: 'ig', page: 1, limit: 1 }).items[0].slug);
    assert.ok(entry);
    const spelling = spellings.forEntry(entry);
    assert.equal(spelling?.label, 'Onitsha spelling');
    const page = entryPage({ assets: ASSETS, entry, spelling }).value;
    assert.match(page, /<p class="note spelling"><strong>Onitsha spelling\.<\/strong> The headword is written in the Onitsha spelling of Kay Williamson&#39;s dictionary/, page);
    // The lexicon is a dialect's: the entry says so in the API's dialect field, and its page shows it.
    assert.equal(entry.dialect?.name, 'Onitsha');
    assert.match(page, /<p class="note dialect"><strong>Onitsha dialect\.<\/strong> This entry is from Kay Williamson&#39;s Dictionary of Ònìchà Igbo, a lexicon of the Onitsha dialect/, page);
    const yoruba = snapshot.entry(snapshot.search({ q: 'omo', language: 'yo', page: 1, limit: 1 }).items[0].slug);
    assert.ok(yoruba);
    assert.equal(spellings.forEntry(yoruba), undefined, 'Wiktionary gives no spelling of its own');
    assert.equal(yoruba.dialect, null);
    assert.ok(!entryPage({ assets: ASSETS, entry: yoruba }).value.includes('class="note dialect"'));
  });

  it('headword spellings - a search in Standard Igbo spelling shows the spelling that matched beside the Onitsha headword', () => {
    const spellings = new HeadwordSpellings(snapshot);
    const result = snapshot.search({ q: 'mmiri', page: 1, limit: 20 });
    const water = result.items.find((w) => w.exactForm === 'mmilī');
    assert.ok(water, JSON.stringify(result.items));
    const note = spellings.noteFor(water, 'mmiri', (slug) => snapshot.entry(slug));
    assert.deepEqual(note, { spelling: note?.spelling, matched: 'mmiri' });
    assert.equal(note?.spelling?.label, 'Onitsha spelling');
    const notes = new Map(result.items.flatMap((w) => {
      const n = spellings.noteFor(w, 'mmiri', (slug) => snapshot.entry(slug));
      return n ? [[w.id, n] as const] : [];
    }));
    const page = searchPage({ assets: ASSETS, languages: snapshot.languages(), q: 'mmiri', page: 1, perPage: 20, maxPage: 10_000, result, notes }).value;
    // An exact match of the entry's Standard Igbo spelling, as the text writes it: not of its headword.
    assert.equal(water.matchType, 'exact');
    assert.match(page, /lang="ig">mmilī<\/a>\n<p class="meta"><span>Igbo<\/span><span class="tag">noun<\/span><span class="tag match" data-match="exact">matched the spelling <span lang="ig">mmiri<\/span><\/span>(?:<span class="tag">common<\/span>)?<span class="tag">Onitsha spelling<\/span>/, page);
  });

  it('headword spellings - an exact match of the headword itself says only that', () => {
    const spellings = new HeadwordSpellings(snapshot);
    const result = snapshot.search({ q: 'ọmọ', language: 'yo', page: 1, limit: 1 });
    assert.equal(result.items[0]?.matchType, 'exact', JSON.stringify(result.items));
    assert.equal(spellings.noteFor(result.items[0], 'ọmọ', (slug) => snapshot.entry(slug)), undefined);
    // A verb root is keyed without its hyphen: -bụ typed bụ is the headword, not another spelling.
    const root = summary({ language: 'ig', exactForm: '-bụ', headword: '-bụ', matchType: 'exact' });
    assert.equal(spellings.noteFor(root, 'bụ', () => assert.fail('no entry read'))?.matched, undefined);
  });

  it('headword spellings - a form match says which form of the entry it found: the stem of kula, the class form of zuri', () => {
    const spellings = new HeadwordSpellings(snapshot);
    for (const [q, exactForm, kind, label] of [
      ['la', 'kula', 'stem', 'matched its stem'],
      ['nzuri', 'zuri', 'class-form', 'matched its noun-class form'],
    ] as const) {
      const result = snapshot.search({ q, language: 'sw', page: 1, limit: 20 });
      const word = result.items.find((w) => w.exactForm === exactForm);
      assert.ok(word?.matchType === 'form', JSON.stringify(result.items));
      const note = spellings.noteFor(word, q, (slug) => snapshot.entry(slug));
      assert.ok(note);
      assert.deepEqual(note.form, { form: q, kind });
      const page = searchPage({ assets: ASSETS, languages: snapshot.languages(), q, language: 'sw', page: 1, perPage: 20, maxPage: 10_000, result, notes: new Map([[word.id, note]]) }).value;
      assert.ok(page.includes(`<span class="tag match" data-match="form">${label} <span lang="sw">${q}</span></span>`), page);
    }
  });

  it('headword spellings - a stored variant that the search spells is the one shown', () => {
    const entry = yorubaEntry({ variants: [{ form: 'ọ̀mọ', kind: 'variant', note: null }, { form: 'ọmọ̀n', kind: 'variant', note: null }] });
    assert.equal(matchedSpelling(entry, 'omon'), 'ọmọ̀n');
    assert.equal(matchedSpelling(entry, 'xyz'), 'xyz');
  });
});

describe('results on a phone', () => {
  const items = [summary({ id: 1, language: 'yo' }), summary({ id: 2, slug: 'omo-2', language: 'yo' })];

  it('results on a phone - a list filtered by language names it once, not on every result', () => {
    const filtered = searchPage({ assets: ASSETS, languages: LANGUAGES, q: 'omo', language: 'yo', page: 1, perPage: 20, maxPage: 10_000, result: { total: 2, truncated: false, items } }).value;
    assert.match(filtered, /Showing 1–2 of 2 words in Yoruba\./);
    assert.ok(!filtered.includes('<span>Yoruba</span>'), filtered);
    const all = searchPage({ assets: ASSETS, languages: LANGUAGES, q: 'omo', page: 1, perPage: 20, maxPage: 10_000, result: { total: 2, truncated: false, items } }).value;
    assert.equal(all.match(/<span>Yoruba<\/span>/g)?.length, 2, all);
  });

  it('results on a phone - results pages get the compact search form, the empty search page the full one', () => {
    const results = searchPage({ assets: ASSETS, languages: LANGUAGES, q: 'omo', page: 1, perPage: 20, maxPage: 10_000, result: { total: 2, truncated: false, items } }).value;
    assert.match(results, /<form class="search compact" role="search"/);
    assert.match(results, /<label for="search-q" class="visually-hidden">Word or English meaning<\/label>/);
    assert.ok(!results.includes('Tone marks are optional'), 'no tip above the results');
    const empty = searchPage({ assets: ASSETS, languages: LANGUAGES, q: '', page: 1, perPage: 20, maxPage: 10_000 }).value;
    assert.match(empty, /<form class="search" role="search"/);
    assert.match(empty, /Tone marks are optional/);
  });

  it('results on a phone - the language menu marks each native name with its language', () => {
    const page = searchPage({ assets: ASSETS, languages: LANGUAGES, q: '', page: 1, perPage: 20, maxPage: 10_000 }).value;
    assert.match(page, /<option value="yo" lang="yo">Èdè Yorùbá \(Yoruba\)<\/option>/, page);
    assert.match(page, /<option value="ig" lang="ig">Asụsụ Igbo \(Igbo\)<\/option>/, page);
  });
});
