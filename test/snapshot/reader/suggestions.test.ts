// "Did you mean": suggestions for a query that found few entries, over the real-corpora snapshot.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';

import { openSnapshot } from '../../../snapshot/reader/reader.ts';
import { MAX_SUGGESTIONS, TWO_EDITS_FROM_LETTERS, neighbours } from '../../../snapshot/reader/suggestions.ts';
import { testSnapshotPath } from '../../support/snapshot.ts';

const snap = openSnapshot(testSnapshotPath());
after(() => snap.close());
const suggest = (q: string, language?: string) => snap.search({ q, language, page: 1, limit: 20 });

describe('suggestions', () => {
  it('suggestions - neighbours are one edit for short queries and also two, one a drop or a swap, for long ones', () => {
    const short = neighbours('mbwa');
    assert.equal(short.get('mwa'), 1, 'a letter dropped');
    assert.equal(short.get('bmwa'), 1, 'two letters swapped');
    assert.equal(short.get('mbwe'), 1, 'a letter changed');
    assert.equal(short.get('mbwax'), 1, 'a letter added');
    assert.ok([...short.values()].every((d) => d === 1), 'one edit below TWO_EDITS_FROM_LETTERS');
    const long = neighbours('nyumbani');
    assert.ok('nyumbani'.length >= TWO_EDITS_FROM_LETTERS);
    assert.equal(long.get('nyumba'), 2, 'two letters dropped');
    assert.equal(long.get('nyubmaxi'), 2, 'a swap and a change');
    assert.equal(long.has('nyumbani'), false, 'the query itself is no neighbour');
  });
  it('suggestions - a slip of the keyboard in Swahili suggests the word, with the query that finds it', { skip: snap.meta.sample && 'built from the sample corpus' }, () => {
    for (const [q, word] of [['nyumbna', 'nyumba'], ['mtotto', 'mtoto'], ['chakla', 'chakula']]) {
      const page = suggest(q, 'sw');
      assert.equal(page.total, 0, `${q} finds nothing itself`);
      assert.deepEqual(page.suggestions[0], { text: word, query: word, language: 'sw', distance: 1 }, JSON.stringify(page.suggestions));
      assert.ok(page.suggestions.length <= MAX_SUGGESTIONS);
      const found = suggest(page.suggestions[0].query, 'sw').items[0];
      assert.equal(found?.exactForm, word, `${page.suggestions[0].query} finds ${word}`);
    }
  });
  it('suggestions - keep to the language asked for, nearest first, and are absent when the query found enough', { skip: snap.meta.sample && 'built from the sample corpus' }, () => {
    const any = suggest('nyumbna').suggestions;
    assert.ok(any.some((s) => s.language !== 'sw'), `no language asked: every language's (${JSON.stringify(any)})`);
    const distances = any.map((s) => s.distance);
    assert.deepEqual(distances, [...distances].sort((a, b) => a - b), 'nearest first');
    assert.ok(suggest('nyumbna', 'sw').suggestions.every((s) => s.language === 'sw'));
    assert.deepEqual(suggest('nyumba', 'sw').suggestions, [], 'a query that finds its word gets none');
    assert.deepEqual(snap.search({ q: 'nyumbna', language: 'sw', scope: 'meaning', page: 1, limit: 20 }).suggestions, [], 'an English meaning is no slip');
  });
});
