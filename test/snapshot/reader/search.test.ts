// Search over the real-corpora snapshot: tone-less, tone-marked and English queries, ranking and paging.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import Database from 'better-sqlite3';

import { BROWSE_ANCHOR_EVERY, MATCH_WEIGHT, MAX_RANKED_ROWS } from '../../../snapshot/format/format.ts';
import { openSnapshot } from '../../../snapshot/reader/reader.ts';
import type { Snapshot } from '../../../snapshot/reader/snapshot.ts';
import { WordSummarySchema } from '../../../services/shared/schemas.ts';
import type { WordSummary } from '../../../services/shared/schemas.ts';
import { fold, glossTokens } from '../../../snapshot/format/text.ts';
import { MATCH_TYPES } from '../../../services/shared/vocabulary.ts';
import { testSnapshotPath } from '../../support/snapshot.ts';

let snap: Snapshot;
before(() => {
  snap = openSnapshot(testSnapshotPath());
});
after(() => snap.close());

const nfc = (s: string) => s.normalize('NFC');
function top(q: string, language?: string, limit = 10) {
  return snap.search({ q, language, page: 1, limit }).items;
}

describe('search', () => {
  it('search - finds Yoruba ọ̀run typed with tone marks (exact) and without (folded)', () => {
    const withTones = top('ọ̀run', 'yo');
    assert.equal(withTones[0].exactForm, nfc('ọ̀run'), JSON.stringify(withTones[0]));
    assert.equal(withTones[0].matchType, 'exact');
    const without = top('orun', 'yo');
    assert.ok(without.some((i) => i.exactForm === nfc('ọ̀run') && i.matchType === 'folded'), JSON.stringify(without));
  });
  it('search - finds Igbo egō from ego, and mmilī from the standard spelling mmiri', () => {
    const ego = top('ego', 'ig');
    assert.deepEqual([ego[0].exactForm, ego[0].matchType], [nfc('egō'), 'folded']);
    assert.deepEqual(top('egō', 'ig')[0].matchType, 'exact');
    const mmiri = top('mmiri', 'ig');
    assert.ok(mmiri.slice(0, 3).some((i) => i.exactForm === nfc('mmilī')), JSON.stringify(mmiri.slice(0, 3)));
    assert.equal(top('mmilī', 'ig')[0].exactForm, nfc('mmilī'));
  });
  it('search - finds words by English gloss (water → omi and mmilī, money → owó and egō)', () => {
    // Across languages Afrikaans `water` is an exact headword match: the gloss matches are asked per language.
    assert.equal(top('water', 'yo', 5)[0].exactForm, 'omi', JSON.stringify(top('water', 'yo', 5)));
    assert.equal(top('water', 'ig', 5)[0].exactForm, nfc('mmilī'), JSON.stringify(top('water', 'ig', 5)));
    assert.ok(top('money', 'yo', 5).some((i) => i.exactForm === nfc('owó')), JSON.stringify(top('money', 'yo', 5)));
    assert.ok(top('money', 'ig', 5).some((i) => i.exactForm === nfc('egō')), JSON.stringify(top('money', 'ig', 5)));
    assert.equal(top('money', 'yo', 5)[0].matchType, 'meaning');
  });
  it('search - finds a tone-marked word where English glosses quote it (ọ̀yọ́, kọ́jọ́dá, ẹ̀gbá)', () => {
    // The gloss index keeps each such word whole, its marks removed ("oyo"); split at its marks, the query
    // asked for "o" and "yo" and found none of them.
    for (const word of ['ọ̀yọ́', 'kọ́jọ́dá', 'ẹ̀gbá']) {
      const gloss = snap.search({ q: word, page: 1, limit: 100 }).items.filter((i) => i.matchType === 'gloss');
      const quoting = gloss.filter((i) => i.glosses.some((g) => glossTokens(g.toLowerCase()).includes(nfc(word))));
      assert.ok(quoting.length > 0, `${word}: ${gloss.length} gloss matches, none quoting it`);
    }
  });
  it('search - gloss matches on a whole word come before those on a word that only starts with the query', () => {
    // The reader runs the prefix query first and the whole-word one only when the prefix found something.
    const wholeWord = (q: string) => (i: WordSummary) => i.glosses.some((g) => glossTokens(g.toLowerCase()).includes(q));
    for (const q of ['rain', 'eat', 'sun']) {
      const gloss = snap.search({ q, page: 1, limit: 100 }).items.filter((i) => i.matchType === 'gloss');
      const pattern = gloss.map((i) => (wholeWord(q)(i) ? 'W' : 'p')).join('');
      assert.match(pattern, /^W+p+$/, q);
    }
    const prefixOnly = snap.search({ q: 'rai', page: 1, limit: 100 }).items.filter((i) => i.matchType === 'gloss');
    assert.ok(prefixOnly.length > 0 && prefixOnly.every((i) => !wholeWord('rai')(i)));
    assert.equal(snap.search({ q: 'sunx', page: 1, limit: 100 }).total, 0);
  });
  it('search - ranks exact > meaning > folded > variant > gloss > form > prefix with a score that falls with the rank', () => {
    const page = snap.search({ q: 'omi', page: 1, limit: 100 });
    const order = page.items.map((i) => MATCH_TYPES.indexOf(i.matchType));
    assert.deepEqual(order, [...order].sort((a, b) => a - b));
    for (let i = 1; i < page.items.length; i++) assert.ok(page.items[i].score < page.items[i - 1].score, `score at ${i}`);
    for (const item of page.items) WordSummarySchema.parse(item);
  });
  it('search - score is the type\'s weight + 1 - its position inside the type / (MAX_RANKED_ROWS + 2), on every page', () => {
    // docs/snapshot.md gives the formula; the reader writes it as text built once per (type, position).
    for (const q of ['omi', 'water', 'a']) {
      const pages = [1, 2, 3].flatMap((p) => snap.search({ q, page: p, limit: 100 }).items);
      const positions = new Map<string, number>();
      for (const item of pages) {
        const position = (positions.get(item.matchType) ?? 0) + 1;
        positions.set(item.matchType, position);
        const weight = MATCH_WEIGHT[item.matchType as keyof typeof MATCH_WEIGHT];
        assert.equal(item.score, weight + 1 - position / (MAX_RANKED_ROWS + 2), `${q} ${item.matchType} ${position}`);
      }
    }
  });
  it('search - language and part-of-speech filters give the unfiltered ranking restricted to them', () => {
    // Below the ranking bound the filters apply to the rows; above it (q=a) FTS5 filters by tag instead. A text with
    // underdots orders its folded matches by their letters (ọ): the filtered list is still the same order.
    for (const q of ['go', 'water', 'ba', 'omi', 'a', 'ọ']) {
      const all = snap.search({ q, page: 1, limit: 100 });
      for (const filters of [{ language: 'ig' }, { language: 'yo' }, { language: 'yo', partOfSpeech: 'verb' }, { partOfSpeech: 'noun' }]) {
        const page = snap.search({ q, ...filters, page: 1, limit: 100 });
        const wanted = (i: { language: string; partOfSpeech: string }) =>
          i.language === (filters.language ?? i.language) && i.partOfSpeech === (filters.partOfSpeech ?? i.partOfSpeech);
        assert.ok(page.items.every(wanted), `${q} ${JSON.stringify(filters)}`);
        if (!all.truncated && all.total <= 100) {
          assert.deepEqual(page.items.map((i) => i.id), all.items.filter(wanted).map((i) => i.id), `${q} ${JSON.stringify(filters)}`);
          assert.equal(page.total, page.items.length);
        } else {
          assert.ok(page.total > 0 && page.total <= MAX_RANKED_ROWS, `${q} ${JSON.stringify(filters)} total ${page.total}`);
        }
      }
    }
  });
  it('search - pages never overlap or skip', () => {
    const all = snap.search({ q: 'a', page: 1, limit: 100 });
    const ids: number[] = [];
    for (let page = 1; page <= 10; page++) ids.push(...snap.search({ q: 'a', page, limit: 100 }).items.map((i) => i.id));
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(ids.length, Math.min(all.total, 1000));
    assert.deepEqual(ids.slice(0, 100), all.items.map((i) => i.id));
  });
  it('search - bounds ranking at MAX_RANKED_ROWS and says so', () => {
    const page = snap.search({ q: 'a', page: 1, limit: 20 });
    assert.equal(page.total, MAX_RANKED_ROWS);
    assert.equal(page.truncated, true);
    assert.equal(snap.search({ q: 'a', page: 51, limit: 20 }).items.length, 0);
  });
  it('search - filters by language and part of speech', () => {
    const yoVerbs = snap.search({ q: 'wa', language: 'yo', partOfSpeech: 'verb', page: 1, limit: 50 });
    assert.ok(yoVerbs.items.length > 0);
    assert.ok(yoVerbs.items.every((i) => i.language === 'yo' && i.partOfSpeech === 'verb'));
    const glossFiltered = snap.search({ q: 'water', language: 'ig', partOfSpeech: 'noun', page: 1, limit: 50 });
    assert.ok(glossFiltered.items.every((i) => i.language === 'ig' && i.partOfSpeech === 'noun'));
  });
  it('search - treats query syntax and odd text as data, never as FTS syntax', () => {
    const hostile = ['"', '*', 'omi*', 'NEAR(a b)', 'a AND b', 'a OR', '(', ')', '^', '{head}: a', 'head:omi', '\u0000', 'omi\u0000', '\u0301', '\u0301\u0300', "'; DROP TABLE entries; --", '-', '--', 'ọ̀*', 'a'.repeat(500), '🙂', ' ', ''];
    for (const q of hostile) {
      const page = snap.search({ q, page: 1, limit: 5 });
      assert.ok(page.total >= 0 && page.items.length <= 5, JSON.stringify(q));
    }
  });
  it('search - without q browses a language alphabetically by browse key', () => {
    const page = snap.search({ language: 'yo', page: 2, limit: 50 });
    assert.equal(page.total, JSON.parse(snap.languagesJson()).data.find((l: { code: string }) => l.code === 'yo').wordCount);
    assert.ok(page.items.every((i) => i.matchType === 'browse' && i.score === 0 && i.language === 'yo'));
    const next = snap.search({ language: 'yo', page: 3, limit: 50 });
    assert.ok(!next.items.some((i) => page.items.some((p) => p.id === i.id)));
  });
  it('search - nothing that is not a word opens a list: every active language\'s A-Z starts with words', () => {
    for (const language of snap.languages().filter((l) => l.status === 'active').map((l) => l.code)) {
      const first = snap.search({ language, page: 1, limit: 20 }).items;
      const notWords = first.filter((i) => !/^\p{L}/u.test(fold(i.headword)));
      assert.deepEqual(notWords.map((i) => i.headword), [], language);
    }
  });
  it('search - the letter index covers the language\'s words in order, and a letter\'s pages are its run', () => {
    const total = snap.search({ language: 'ig', page: 1, limit: 1 }).total;
    const letters = snap.browseLetters('ig');
    assert.ok(letters.length >= 20, JSON.stringify(letters));
    assert.ok(letters.every((l) => /^\p{L}$/u.test(l.letter) && l.count > 0));
    for (let i = 1; i < letters.length; i++) assert.equal(letters[i].start, letters[i - 1].start + letters[i - 1].count);
    assert.ok(letters.at(-1)!.start + letters.at(-1)!.count <= total);
    const g = letters.find((l) => l.letter === 'g');
    assert.ok(g && g.count > 40, JSON.stringify(g));
    const lastPage = Math.ceil(g.count / 20);
    const seen: number[] = [];
    for (let page = 1; page <= lastPage + 1; page++) {
      const slice = snap.search({ language: 'ig', letter: 'g', page, limit: 20 });
      assert.equal(slice.total, g.count);
      assert.ok(slice.items.every((i) => fold(i.headword).replace(/^[^\p{L}]+/u, '').startsWith('g')), `page ${page}`);
      seen.push(...slice.items.map((i) => i.id));
    }
    const db = new Database(testSnapshotPath(), { readonly: true });
    const run = db.prepare("SELECT id FROM entries WHERE language = 'ig' ORDER BY browse_key, id LIMIT ? OFFSET ?").pluck().all(g.count, g.start);
    db.close();
    assert.deepEqual(seen, run);
    assert.equal(snap.search({ language: 'ig', letter: '#', page: 1, limit: 20 }).total, 0);
  });
  it('search - a browse page read from its anchor is the page a plain OFFSET gives, for every filter', () => {
    const db = new Database(testSnapshotPath(), { readonly: true });
    try {
      const plain = (language: string | undefined, pos: string | undefined, limit: number, offset: number): number[] => {
        const where = [language ? 'language = ?' : '', pos ? 'pos = ?' : ''].filter(Boolean).join(' AND ');
        const params = [language, pos].filter((p) => p !== undefined);
        const sql = `SELECT id FROM entries ${where ? `WHERE ${where}` : ''} ORDER BY browse_key, id LIMIT ? OFFSET ?`;
        return (db.prepare(sql).pluck().all(...params, limit, offset) as number[]);
      };
      for (const [language, partOfSpeech] of [[undefined, undefined], ['ig', undefined], ['yo', undefined], [undefined, 'noun'], ['ig', 'verb']]) {
        const total = snap.search({ language, partOfSpeech, page: 1, limit: 1 }).total;
        assert.ok(total > 2 * BROWSE_ANCHOR_EVERY, `${language}/${partOfSpeech}: ${total} entries do not reach two anchors`);
        // Pages that start on an anchor, just before and after one, straddle one, and the last page.
        for (const limit of [100, 7, 13]) {
          const lastPage = Math.ceil(total / limit);
          const pages = new Set([1, 10, 11, Math.floor(BROWSE_ANCHOR_EVERY / limit) + 1, Math.floor((2 * BROWSE_ANCHOR_EVERY) / limit) + 1, lastPage - 1, lastPage]);
          for (const page of pages) {
            const ids = snap.search({ language, partOfSpeech, page, limit }).items.map((i) => i.id);
            assert.deepEqual(ids, plain(language, partOfSpeech, limit, (page - 1) * limit), `${language}/${partOfSpeech} page ${page} limit ${limit}`);
          }
        }
        const past = snap.search({ language, partOfSpeech, page: Math.ceil(total / 100) + 1, limit: 100 });
        assert.deepEqual([past.total, past.items.length], [total, 0]);
      }
    } finally {
      db.close();
    }
  });
  it('search - repeats return the same page (cache) with equal content', () => {
    const a = snap.search({ q: 'ile', page: 1, limit: 7 });
    const b = snap.search({ q: ' ile ', page: 1, limit: 7 });
    assert.deepEqual(a, b);
  });
});
