// Search that a speaker trusts: real Igbo and Yoruba words typed with and without tone marks and underdots,
// by variant and by English meaning, ranked exact > meaning > folded > variant > gloss > form > inflected > prefix,
// deterministically.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { MATCH_TYPES } from '../../services/shared/vocabulary.ts';
import { show, startApi } from './support.ts';

import type { WordsPage } from '../../services/shared/schemas.ts';
import type { Api } from './support.ts';

let api: Api;
before(async () => {
  api = await startApi({ workers: 1 });
});
after(async () => {
  await api?.stack.stop();
});

async function search(q: string, extra = ''): Promise<WordsPage> {
  const reply = await api.call(`/api/v1/words?q=${encodeURIComponent(q)}${extra}`, { key: api.key });
  assert.equal(reply.status, 200, show(reply));
  return reply.body as WordsPage;
}

const first = (page: WordsPage) => page.data[0];

describe('search ranking', () => {
  // [typed, language, expected first exactForm, expected matchType, English gloss it carries]
  const CASES: Array<[string, string, string, string, string]> = [
    ['ilé', 'yo', 'ilé', 'exact', 'house'],
    ['ile', 'yo', 'ilé', 'folded', 'house'],
    ['ọmọ', 'yo', 'ọmọ', 'exact', 'child'],
    ['omo', 'yo', 'ọmọ', 'folded', 'child'],
    ['ọ̀rẹ́', 'yo', 'ọ̀rẹ́', 'exact', 'friend'],
    ['omi', 'yo', 'omi', 'exact', 'water'],
    // Standard Igbo is written without tones, so an Igbo form without tone marks has no exact key (docs/snapshot.md).
    ['akwụkwọ', 'ig', 'akwụkwọ', 'folded', 'leaf'],
    ['akwukwo', 'ig', 'akwụkwọ', 'folded', 'leaf'],
    ['AKWUKWO', 'ig', 'akwụkwọ', 'folded', 'leaf'],
  ];
  for (const [typed, language, exactForm, matchType, gloss] of CASES) {
    test(`search ranking - ${typed} (${language}) finds ${exactForm} first as ${matchType}`, async () => {
      const page = await search(typed, `&language=${language}`);
      assert.equal(first(page).exactForm, exactForm, JSON.stringify(page.data.slice(0, 3)));
      assert.equal(first(page).matchType, matchType);
      assert.ok(first(page).glosses.join(' ').includes(gloss), JSON.stringify(first(page)));
    });
  }

  test('search ranking - a word typed in decomposed form (NFD) matches as exact', async () => {
    const page = await search('ile\u0301', '&language=yo');
    assert.equal(first(page).exactForm, 'ilé');
    assert.equal(first(page).matchType, 'exact');
  });

  test('search ranking - the Standard Igbo spelling mmiri finds mmilī (water), as exactly the text writes it', async () => {
    const page = await search('mmiri', '&language=ig');
    assert.equal(first(page).matchType, 'exact', JSON.stringify(page.data.slice(0, 3)));
    assert.match(first(page).glosses.join(' '), /water/);
  });

  test('search ranking - by English meaning: house finds ilé, child finds ọmọ, water finds omi', async () => {
    // Among gloss matches the snapshot may put a gloss equal to the query before a longer one; the common
    // word is still near the top.
    for (const [gloss, exactForm] of [['house', 'ilé'], ['child', 'ọmọ']] as const) {
      const page = await search(gloss, '&language=yo');
      const top = page.data.slice(0, 3);
      assert.ok(top.some((w) => w.exactForm === exactForm), JSON.stringify(top));
      assert.ok(page.data.every((w) => w.matchType === 'meaning' || w.matchType === 'gloss'));
    }
    const water = await search('water', '&limit=100');
    assert.ok(water.data.some((w) => w.exactForm === 'omi' && w.matchType === 'meaning'));
  });

  test('search ranking - scope keeps the text to the words of the language or to English meanings', async () => {
    const HEADWORD_TYPES = ['exact', 'folded', 'variant', 'form', 'inflected', 'prefix'];
    const MEANING_TYPES = ['meaning', 'gloss'];
    // Yoruba go is a word of the language ("to hide") and an English meaning (lọ).
    const all = await search('go', '&language=yo&limit=100');
    const types = new Set(all.data.map((w) => w.matchType));
    assert.ok(types.has('exact') && types.has('meaning'), JSON.stringify(all.data.slice(0, 5)));
    assert.deepEqual(await search('go', '&language=yo&limit=100&scope=all'), all);
    const words = await search('go', '&language=yo&limit=100&scope=headword');
    assert.ok(words.data.length > 0 && words.data.every((w) => HEADWORD_TYPES.includes(w.matchType)), JSON.stringify(words.data.map((w) => w.matchType)));
    assert.equal(first(words).exactForm, 'go');
    const meanings = await search('go', '&language=yo&limit=100&scope=meaning');
    assert.ok(meanings.data.length > 0 && meanings.data.every((w) => MEANING_TYPES.includes(w.matchType)), JSON.stringify(meanings.data.map((w) => w.matchType)));
    assert.equal(first(meanings).matchType, 'meaning', JSON.stringify(meanings.data.slice(0, 3)));
    assert.ok(words.total + meanings.total >= all.total, `${words.total} + ${meanings.total} < ${all.total}`);
  });

  test('search ranking - matchType never goes back up the order and score never rises down the list', async () => {
    for (const q of ['ile', 'omo', 'ore', 'akwukwo', 'nri']) {
      const page = await search(q, '&limit=100');
      const ranks = page.data.map((w) => MATCH_TYPES.indexOf(w.matchType));
      assert.deepEqual(ranks, [...ranks].sort((a, b) => a - b), `${q}: ${page.data.map((w) => w.matchType)}`);
      const scores = page.data.map((w) => w.score);
      assert.deepEqual(scores, [...scores].sort((a, b) => b - a), q);
    }
  });

  test('search ranking - pages of one query never overlap or skip', async () => {
    const all = await search('a', '&language=yo&limit=100');
    const ids: number[] = [];
    for (let p = 1; p <= 5; p++) ids.push(...(await search('a', `&language=yo&limit=20&page=${p}`)).data.map((w) => w.id));
    assert.deepEqual(ids, all.data.map((w) => w.id));
  });

  test('search ranking - a broad query is bounded and says so in diagnostics', async () => {
    const page = await search('a');
    assert.ok(page.total > 0);
    if (page.diagnostics) assert.equal(page.diagnostics.truncated, true);
    const star = await search('a*');
    assert.ok(star.total <= 10_000 * 100);
  });
  test('search ranking - an inflected form leads to its entry as matchType inflected, in scope all and headword only', async () => {
    const all = await search('nimekupenda', '&language=sw');
    assert.equal(first(all)?.exactForm, 'kupenda', JSON.stringify(all.data.slice(0, 3)));
    assert.equal(first(all)?.matchType, 'inflected');
    assert.ok(MATCH_TYPES.includes(first(all)?.matchType ?? 'browse'));
    const words = await search('nimekupenda', '&language=sw&scope=headword');
    assert.deepEqual(words.data.map((w) => [w.exactForm, w.matchType]), all.data.map((w) => [w.exactForm, w.matchType]));
    const meanings = await search('nimekupenda', '&language=sw&scope=meaning');
    assert.ok(meanings.data.every((w) => w.matchType !== 'inflected'), JSON.stringify(meanings.data));
  });
  test('search ranking - a slip of the keyboard gets suggestions in diagnostics, with the query that finds each', async () => {
    const swahili = await search('nyumbna', '&language=sw');
    assert.equal(swahili.total, 0, JSON.stringify(swahili));
    assert.deepEqual((swahili.diagnostics?.suggestions as unknown[] | undefined)?.[0], { text: 'nyumba', query: 'nyumba', language: 'sw', distance: 1 }, JSON.stringify(swahili.diagnostics));
    // Letters beyond ASCII in the envelope's tail: the body stays valid UTF-8 JSON.
    const yoruba = await search('omoo', '&language=yo');
    const suggestions = yoruba.diagnostics?.suggestions as { text: string; query: string }[] | undefined;
    assert.equal(suggestions?.[0]?.text, 'ọmọ'.normalize('NFC'), JSON.stringify(yoruba.diagnostics));
    assert.equal(first(await search(suggestions?.[0]?.query ?? '', '&language=yo'))?.exactForm, 'ọmọ'.normalize('NFC'));
    assert.equal((await search('nyumba', '&language=sw')).diagnostics, undefined, 'a query that finds its word gets none');
  });
});
