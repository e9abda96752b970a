// A language that comes in a format the build already reads is a manifest entry and nothing else: a Setswana
// corpus in the Wiktionary .tsv format, with manifests of its own, is built and searched without any code for it.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import { buildSnapshot } from '../../../snapshot/compiler/pipeline.ts';
import { LANGUAGE_RULES, languageRules } from '../../../snapshot/languages/index.ts';
import { DEFAULT_RULES } from '../../../snapshot/languages/rules.ts';
import { openSnapshot } from '../../../snapshot/reader/reader.ts';
import type { WordSummary } from '../../../services/shared/schemas.ts';
import { tempDir } from '../compiler/build-helpers.ts';

/** Setswana (tn): in no manifest of the repository and without a module in snapshot/languages/. */
const CODE = 'tn';
/** Wiktionary .tsv lines: the page title, the forms the key lists (plurals), and the article's HTML. */
const LINES = [
  'metsi\t<i>noun</i><br><ol><li>water</li></ol>',
  'ntlo|matlo\t<i>noun</i><br><ol><li>house</li><li>home</li></ol>',
  'dijo\t<i>noun</i><br><ol><li>food</li></ol>',
  'tsamaya\t<i>verb</i><br><ol><li>to go, to walk</li></ol>',
  'ngwana|bana\t<i>noun</i><br><ol><li>child</li></ol>',
  'mosadi|basadi\t<i>noun</i><br><ol><li>woman, wife</li></ol>',
];

async function buildSetswana(t: { after: (fn: () => void) => void }) {
  const dir = tempDir(t, 'new-language-');
  const corpora = path.join(dir, 'corpora');
  mkdirSync(path.join(corpora, 'wiktionary'), { recursive: true });
  writeFileSync(path.join(corpora, 'wiktionary', 'setswana.tsv'), `${LINES.join('\n')}\n`);
  // The two manifest entries: the language, and its source in a format already read.
  const languagesFile = path.join(dir, 'languages.json');
  writeFileSync(languagesFile, JSON.stringify({ languages: [{ code: CODE, slug: 'setswana', name: 'Setswana', nativeName: 'Setswana' }] }));
  const sourcesFile = path.join(dir, 'sources.json');
  writeFileSync(
    sourcesFile,
    JSON.stringify({
      activeAtGlossedEntries: 5,
      sources: [
        {
          id: 'wiktionary-tn',
          name: 'Setswana entries of English Wiktionary',
          language: CODE,
          importer: 'wiktionary-tsv',
          file: 'wiktionary/setswana.tsv',
          licence: { spdx: 'CC-BY-SA-3.0', name: 'CC BY-SA 3.0', url: 'https://creativecommons.org/licenses/by-sa/3.0/' },
          attribution: 'Wiktionary contributors, CC BY-SA 3.0.',
          url: 'https://en.wiktionary.org/wiki/Category:Tswana_language',
          role: 'lexicon',
          verified: true,
        },
      ],
    }),
  );
  const out = path.join(dir, 'snapshot.sqlite');
  const { report } = await buildSnapshot({ out, corpora, sourcesFile, languagesFile, date: '2026-01-01' });
  const snap = openSnapshot(out);
  t.after(() => snap.close());
  return { report, snap };
}

const show = (items: readonly WordSummary[]): string => JSON.stringify(items.map((i) => [i.exactForm, i.matchType]));

describe('a new language', () => {
  it('a new language - has no module, so it gets the default rules', () => {
    assert.equal(Object.hasOwn(LANGUAGE_RULES, CODE), false);
    assert.equal(languageRules(CODE), DEFAULT_RULES);
  });
  it('a new language - in a format already read, its manifest entries are all it takes to build and search it', async (t) => {
    const { report, snap } = await buildSetswana(t);
    const tn = report.languages.find((l) => l.code === CODE);
    assert.deepEqual(tn && [tn.status, tn.read, tn.imported, tn.entries], ['active', 6, 6, 6], JSON.stringify(tn));
    assert.deepEqual(
      snap.languages().map((l) => [l.code, l.status, l.wordCount]),
      [[CODE, 'active', 6]],
    );
    assert.equal(snap.findActiveLanguage('setswana')?.code, CODE);
    const search = (q: string, language?: string): WordSummary[] => snap.search({ q, language, page: 1, limit: 5 }).items;
    const first = (q: string, language?: string): [string | undefined, string | undefined] => {
      const [hit] = search(q, language);
      return [hit?.exactForm, hit?.matchType];
    };
    assert.deepEqual(first('metsi'), ['metsi', 'exact'], show(search('metsi')));
    assert.deepEqual(first('METSI', CODE), ['metsi', 'exact'], 'case aside');
    assert.deepEqual(first('water', CODE), ['metsi', 'meaning'], show(search('water', CODE)));
    assert.deepEqual(first('matlo', CODE), ['ntlo', 'form'], 'a plural the key lists finds its noun');
    assert.deepEqual(first('tsam', CODE), ['tsamaya', 'prefix'], show(search('tsam', CODE)));
    assert.deepEqual(first('walk', CODE), ['tsamaya', 'meaning'], show(search('walk', CODE)));
    const [ntlo] = search('ntlo', CODE);
    const entry = snap.entry(ntlo.slug);
    assert.deepEqual(entry && [entry.language, entry.languageName, entry.partOfSpeech, entry.glosses], [CODE, 'Setswana', 'noun', ['house', 'home']]);
    assert.equal(entry?.source.id, 'wiktionary-tn');
    assert.equal(snap.search({ language: CODE, page: 1, limit: 10 }).total, 6, 'browsed by its language');
    assert.ok(snap.wordOfTheDayJson(CODE, '2026-01-01')?.includes(`"language":"${CODE}"`), 'and it has a word of the day');
  });
});
