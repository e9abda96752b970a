// Importer for CoNLL-U treebanks: sentences with lemmas, POS and English translations, line by line.
import { normalise } from '../../format/text.ts';
import { FormatError } from '../read/errors.ts';
import { readLines } from '../read/files.ts';
import type { SentenceOutcome, SentenceRecord, SourceContext } from '../records.ts';
import { NO_OPTIONS, defineImporter } from './importer.ts';
import { UPOS } from './parts-of-speech.ts';

/**
 * Streams sentences out of CoNLL-U lines. A sentence is a block of `# key = value` comments and
 * 10-column token lines ended by a blank line; multiword-token ranges (1-2) and empty nodes (1.1) are
 * skipped as the standard says. A token line without 10 columns means the file is not CoNLL-U.
 */
export function* parseConllu(lines: Iterable<string>, source: SourceContext, file = 'input'): Generator<SentenceOutcome> {
  let comments = new Map<string, string>();
  let tokens: SentenceRecord['lemmas'] = [];
  let tokenCount = 0;
  let lineNo = 0;
  const flush = (): SentenceOutcome | null => {
    if (comments.size === 0 && tokenCount === 0) return null;
    const id = comments.get('sent_id') ?? `line-${lineNo}`;
    const text = normalise(comments.get('text') ?? '');
    const translation = normalise(comments.get('text_en') ?? '');
    const outcome: SentenceOutcome | null =
      tokenCount === 0 && !comments.has('text')
        ? null // document-level comments only (e.g. `# newdoc id`): not a sentence
        : text === ''
          ? { kind: 'rejected', reason: 'sentence without # text' }
          : {
              kind: 'sentence',
              record: {
                sourceId: source.id,
                language: source.language,
                id,
                text,
                translation: translation === '' ? null : translation,
                lemmas: tokens,
              },
            };
    comments = new Map();
    tokens = [];
    tokenCount = 0;
    return outcome;
  };
  for (const rawLine of lines) {
    lineNo += 1;
    const line = rawLine.replace(/\r$/, '');
    if (line.trim() === '') {
      const done = flush();
      if (done) yield done;
      continue;
    }
    if (line.startsWith('#')) {
      const match = /^#\s*([^=]+?)\s*=\s*(.*)$/.exec(line);
      // `# source` / `# newdoc` comments precede the sentence they belong to; keep the latest value.
      if (match) comments.set(match[1], match[2]);
      continue;
    }
    const cols = line.split('\t');
    if (cols.length !== 10) throw new FormatError(`${file}:${lineNo}: not CoNLL-U (expected 10 tab-separated columns, got ${cols.length})`);
    if (!/^\d+$/.test(cols[0])) continue;
    tokenCount += 1;
    const lemma = normalise(cols[2]).toLowerCase();
    const partOfSpeech = UPOS[cols[3]] ?? null;
    // The MISC column's Gloss= is the token's English word (Gloss=you): what the attachment checks the entry against.
    const gloss = /(?:^|\|)Gloss=([^|]+)/.exec(cols[9])?.[1];
    if (lemma !== '' && lemma !== '_' && partOfSpeech !== null) tokens.push({ lemma, partOfSpeech, ...(gloss ? { gloss: normalise(gloss.replace(/_/g, ' ')) } : {}) });
  }
  const last = flush();
  if (last) yield last;
}

/** Sentences attach to entries by lemma once the entries are known (snapshot/compiler/attach.ts). */
export const conllu = defineImporter({
  options: NO_OPTIONS,
  read(source, into) {
    for (const outcome of parseConllu(readLines(into.file), source, into.file)) into.sentence(outcome);
  },
});
