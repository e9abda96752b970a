// Draws the reading samples of docs/reading-samples.md from a snapshot, seeded so that anyone can draw the same:
// example sentences as attached to entries, derived Standard Igbo spellings, Yoruba and Hausa entries with their first
// pronunciation, each active language's words of the day, and searches written with underdots but no tones. Every
// item is then read as a speaker (or a teacher) would; the verdicts live in the doc.
// `node --import tsx scripts/content/reading-samples.ts [--snapshot FILE] [--corpora DIR] [--seed S] [--examples N]
//   [--spellings N] [--pronunciations N] [--days N] [--from YYYY-MM-DD] [--underdots N]`
import path from 'node:path';
import { parseArgs } from 'node:util';

import type { Entry } from '../../services/shared/schemas.ts';
import type { Snapshot } from '../../snapshot/reader/snapshot.ts';
import { openSnapshot } from '../../snapshot/reader/reader.ts';
import { pronunciationItems, underdotItems, wordOfTheDayItems } from './reading-samples-more.ts';
import { seededOrder } from './seeded.ts';

const BROWSE_PAGE = 100;

/** Every entry of the active languages, in browse order. */
function* allEntries(snapshot: Snapshot): Generator<Entry> {
  for (const language of snapshot.languages().filter((l) => l.status === 'active')) {
    for (let page = 1; ; page++) {
      const items = snapshot.search({ language: language.code, page, limit: BROWSE_PAGE }).items;
      for (const item of items) {
        const entry = snapshot.entry(item.slug);
        if (entry) yield entry;
      }
      if (items.length < BROWSE_PAGE) break;
    }
  }
}

export interface Attachment {
  key: string;
  text: string;
}

const gloss = (e: Entry): string => e.glosses.slice(0, 3).join('; ');

function exampleItems(entries: readonly Entry[]): Attachment[] {
  const out: Attachment[] = [];
  for (const e of entries) {
    for (const x of e.examples) {
      out.push({
        key: `${e.slug} ${x.source.id} ${x.reference ?? x.text}`,
        text: `**${e.language} ${e.headword}** (${e.partOfSpeech}) "${gloss(e)}" — ${x.source.id}${x.reference ? `, ${x.reference}` : ''}\n   ${x.text}\n   ${x.translation ?? '(no translation)'}`,
      });
    }
  }
  return out;
}

function spellingItems(entries: readonly Entry[]): Attachment[] {
  const out: Attachment[] = [];
  for (const e of entries) {
    for (const v of e.variants) {
      if (v.kind !== 'standard-spelling') continue;
      out.push({ key: `${e.slug} ${v.form}`, text: `**${v.form}** ← ${e.headword} (${e.partOfSpeech}) "${gloss(e)}"\n   ${v.note ?? ''}` });
    }
  }
  return out;
}

const { values } = parseArgs({
  options: {
    snapshot: { type: 'string', default: '.tmp/test-snapshot.sqlite' },
    corpora: { type: 'string' },
    seed: { type: 'string', default: '40' },
    examples: { type: 'string', default: '100' },
    spellings: { type: 'string', default: '60' },
    pronunciations: { type: 'string', default: '40' },
    days: { type: 'string', default: '30' },
    from: { type: 'string', default: '2027-01-01' },
    underdots: { type: 'string', default: '20' },
  },
});
const snapshot = openSnapshot(path.resolve(values.snapshot));
try {
  const entries = [...allEntries(snapshot)];
  const examples = exampleItems(entries);
  const spellings = spellingItems(entries);
  const seed = Number(values.seed);
  const pick = (items: Attachment[], n: number): Attachment[] => seededOrder(items, (i) => i.key, seed).slice(0, n);
  const numbered = (items: readonly { text: string }[]): string => items.map((i, n) => `${n + 1}. ${i.text}`).join('\n');
  const pronounced = pronunciationItems(entries);
  const underdots = underdotItems(snapshot, entries, values.corpora);
  process.stdout.write(`snapshot ${snapshot.meta.version}, seed ${seed}\n\n`);
  process.stdout.write(`## Example attachments (${examples.length} in the snapshot; ${values.examples} drawn)\n\n${numbered(pick(examples, Number(values.examples)))}\n\n`);
  process.stdout.write(`## Standard Igbo spellings (${spellings.length} in the snapshot; ${values.spellings} drawn)\n\n${numbered(pick(spellings, Number(values.spellings)))}\n\n`);
  process.stdout.write(`## Pronunciations (${pronounced.length} Yoruba and Hausa entries with one; ${values.pronunciations} drawn)\n\n${numbered(pick(pronounced, Number(values.pronunciations)))}\n\n`);
  process.stdout.write(`## Words of the day (${values.days} days from ${values.from}, each active language)\n\n${wordOfTheDayItems(snapshot, values.from, Number(values.days))}\n\n`);
  process.stdout.write(`## Searches with underdots and no tones (${underdots.length} candidates; ${values.underdots} drawn)\n\n${numbered(pick(underdots, Number(values.underdots)))}\n`);
} finally {
  snapshot.close();
}
