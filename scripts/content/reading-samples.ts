// Draws the reading samples of docs/reading-samples.md from a snapshot, seeded so that anyone can draw the same:
// example sentences as attached to entries, and derived Standard Igbo spellings with a Standard sentence that uses
// each. Every item is then read as a speaker would; the verdicts live in the doc.
// `node --import tsx scripts/content/reading-samples.ts [--snapshot FILE] [--seed S] [--examples N] [--spellings N]`
import path from 'node:path';
import { parseArgs } from 'node:util';

import type { Entry } from '../../services/shared/schemas.ts';
import type { Snapshot } from '../../snapshot/reader/snapshot.ts';
import { openSnapshot } from '../../snapshot/reader/reader.ts';
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

interface Attachment {
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
    seed: { type: 'string', default: '40' },
    examples: { type: 'string', default: '100' },
    spellings: { type: 'string', default: '60' },
  },
});
const snapshot = openSnapshot(path.resolve(values.snapshot));
try {
  const entries = [...allEntries(snapshot)];
  const examples = exampleItems(entries);
  const spellings = spellingItems(entries);
  const seed = Number(values.seed);
  const pick = (items: Attachment[], n: number): Attachment[] => seededOrder(items, (i) => i.key, seed).slice(0, n);
  const numbered = (items: Attachment[]): string => items.map((i, n) => `${n + 1}. ${i.text}`).join('\n');
  process.stdout.write(`snapshot ${snapshot.meta.version}, seed ${seed}\n\n`);
  process.stdout.write(`## Example attachments (${examples.length} in the snapshot; ${values.examples} drawn)\n\n${numbered(pick(examples, Number(values.examples)))}\n\n`);
  process.stdout.write(`## Standard Igbo spellings (${spellings.length} in the snapshot; ${values.spellings} drawn)\n\n${numbered(pick(spellings, Number(values.spellings)))}\n`);
} finally {
  snapshot.close();
}
