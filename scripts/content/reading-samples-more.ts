// The reading samples beyond examples and spellings (scripts/content/reading-samples.ts): Yoruba and Hausa entries
// with the pronunciation they show first, each active language's words of the day, and searches written with
// underdots but without tones, as Standard Igbo and much Yoruba web text are typed.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { Entry } from '../../services/shared/schemas.ts';
import { writtenWords } from '../../snapshot/compiler/aligned-text.ts';
import { locateCorpora } from '../../snapshot/compiler/inputs.ts';
import { lettersOf } from '../../snapshot/compiler/written-forms.ts';
import { writesLetterMarks, writesToneMarks } from '../../snapshot/format/letter-marks.ts';
import type { Snapshot } from '../../snapshot/reader/snapshot.ts';
import type { Attachment } from './reading-samples.ts';

/** The languages whose pronunciations are checked against the headword's tones (docs/snapshot.md, "Entries"). */
const TONED = new Set(['yo', 'ha']);
const gloss = (e: Entry): string => e.glosses.slice(0, 2).join('; ').slice(0, 90);

/** Yoruba and Hausa entries that show a pronunciation: the headword beside the IPA shown first. */
export function pronunciationItems(entries: readonly Entry[]): Attachment[] {
  return entries
    .filter((e) => TONED.has(e.language) && e.pronunciations.length > 0)
    .map((e) => ({
      key: e.slug,
      text: `**${e.language} ${e.headword}** (${e.partOfSpeech}) "${gloss(e)}" — /${e.pronunciations[0].ipa}/ (${e.pronunciations[0].source.id})${e.pronunciations.length > 1 ? `; then ${e.pronunciations.slice(1).map((p) => `/${p.ipa}/`).join(', ')}` : ''}`,
    }));
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Each active language's word of the day for `days` days from `from`, one line a day. */
export function wordOfTheDayItems(snapshot: Snapshot, from: string, days: number): string {
  const start = Date.parse(`${from}T00:00:00Z`);
  const out: string[] = [];
  for (const language of snapshot.languages().filter((l) => l.status === 'active')) {
    out.push(`### ${language.code}\n`);
    for (let d = 0; d < days; d++) {
      const date = new Date(start + d * DAY_MS).toISOString().slice(0, 10);
      const body = snapshot.wordOfTheDayJson(language.code, date);
      const entry = body ? (JSON.parse(body) as { entry: Entry }).entry : undefined;
      out.push(`${d + 1}. ${date} ${entry ? `**${entry.headword}** (${entry.partOfSpeech}) "${gloss(entry)}"` : '(none)'}`);
    }
    out.push('');
  }
  return out.join('\n');
}

/**
 * Searches written with underdots and no tone marks, each with its first three results: Igbo words as the NTREX-128
 * Standard text writes them, and Yoruba headwords with their tones taken off. Candidates are the distinct queries
 * that some entry of the language folds like.
 */
export function underdotItems(snapshot: Snapshot, entries: readonly Entry[], corpora: string | undefined): Attachment[] {
  const dir = locateCorpora(corpora, process.env.CORPORA_DIR).dir;
  const igbo = writtenWords(readFileSync(path.join(dir, 'ntrex-128', 'newstest2019-ref.ibo.txt'), 'utf8'));
  const yoruba = entries.filter((e) => e.language === 'yo' && !e.headword.includes(' ')).map((e) => lettersOf(e.headword));
  const queries = new Map<string, string>();
  for (const [language, words] of [['ig', igbo], ['yo', yoruba]] as const) {
    for (const word of words) if (writesLetterMarks(word) && !writesToneMarks(word)) queries.set(`${language} ${word}`, language);
  }
  const out: Attachment[] = [];
  for (const [key, language] of queries) {
    const q = key.slice(language.length + 1);
    const items = snapshot.search({ q, language, scope: 'headword', page: 1, limit: 3 }).items;
    if (items.length === 0) continue;
    const shown = items.map((i) => `${i.exactForm} (${i.matchType}) "${(i.glosses[0] ?? '').slice(0, 50)}"`).join(' · ');
    out.push({ key, text: `**${language} ${q}** → ${shown}` });
  }
  return out;
}
