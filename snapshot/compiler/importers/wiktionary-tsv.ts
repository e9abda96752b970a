// Importer for the Wiktionary `.tsv` exports (`headword|form|form…<TAB>HTML`), and the entries of the StarDict one.
import { z } from 'zod';

import { fold, hasDiacritics, normalise } from '../../format/text.ts';
import { languageRules } from '../../languages/index.ts';
import { readLines } from '../read/files.ts';
import type { FormRecord, LexRecord, Outcome, SourceContext } from '../records.ts';
import { defineImporter } from './importer.ts';
import { KAIKKI_POS } from './parts-of-speech.ts';
import { parseArticle } from './wiktionary-html.ts';

/** The manifest option of the Wiktionary exports (wiktionary-tsv, stardict-tar). */
export const HEADWORD_OPTIONS = z.object({
  /**
   * Which form of a key is the displayed headword: the page title, or the tone-marked citation form among the
   * key's forms where there is one (Hausa: the page title carries no tones).
   */
  headword: z.enum(['page-title', 'tone-marked-form']).default('page-title'),
});
export type HeadwordPolicy = z.infer<typeof HEADWORD_OPTIONS>['headword'];

export interface WiktionaryContext extends SourceContext {
  headword: HeadwordPolicy;
}

type Script = 'latin' | 'ethiopic' | 'arabic' | 'tifinagh' | 'adlam' | 'other' | 'none';

/** The script of a form's first letter: a form in another script than the page title is not a plain form of it. */
export function scriptOf(form: string): Script {
  const letter = /\p{L}/u.exec(form)?.[0];
  if (letter === undefined) return 'none';
  if (/\p{Script=Latin}/u.test(letter)) return 'latin';
  if (/\p{Script=Ethiopic}/u.test(letter)) return 'ethiopic';
  if (/\p{Script=Arabic}/u.test(letter)) return 'arabic';
  if (/\p{Script=Tifinagh}/u.test(letter)) return 'tifinagh';
  if (/\p{Script=Adlam}/u.test(letter)) return 'adlam';
  return 'other';
}

/** A form without its combining marks (tones, length), hooked letters kept: `àlƙālī` → `alƙali`. */
function unmarked(form: string): string {
  return form.normalize('NFD').replace(/[\u0300-\u036f]/g, '').normalize('NFC');
}

/**
 * What an unlabelled form of the key is to the page title: the same word with tone marks, the same spelling
 * in other letter case, a romanisation (Latin form of a Ge'ez or Tifinagh title), a spelling in another script
 * (Ajami, Tifinagh, Adlam beside a Latin title), or another form (plural, possessed, inflected: unlabelled).
 */
export function classifyForm(title: string, form: string): FormRecord['kind'] {
  const titleScript = scriptOf(title);
  const formScript = scriptOf(form);
  if (formScript !== titleScript && formScript !== 'none' && titleScript !== 'none') {
    return titleScript !== 'latin' && formScript === 'latin' ? 'romanisation' : 'other-script';
  }
  if (fold(form) === fold(title)) return hasDiacritics(form) ? 'tone-marked' : 'spelling';
  return 'form';
}

/**
 * The displayed headword of a key. Hausa (`tone-marked-form`): the tone-marked citation form, preferring one
 * that keeps the title's letters (àlƙālī over àlkālī for alƙali), then the first listed: homographs are merged
 * into one record (kare: kàrē "dog", kā̀r̃ê "quarter"), so the key cannot say which form goes with which sense.
 */
export function chooseHeadword(title: string, forms: readonly FormRecord[], policy: HeadwordPolicy): string {
  if (policy !== 'tone-marked-form') return title;
  const marked = forms.filter((f) => f.kind === 'tone-marked');
  return (marked.find((f) => unmarked(f.form) === unmarked(title)) ?? marked[0])?.form ?? title;
}

/** The entries of one article: one per part of speech, each with the key's forms. */
export function articleRecords(title: string, otherForms: readonly string[], html: string, source: WiktionaryContext): Outcome {
  const blocks = parseArticle(html).filter((b) => b.glosses.length > 0);
  if (blocks.length === 0) return { kind: 'rejected', reason: 'no English gloss' };
  const listed: FormRecord[] = [];
  for (const raw of otherForms) {
    const form = normalise(raw);
    if (form !== '' && form !== title && !listed.some((f) => f.form === form)) listed.push({ form, kind: classifyForm(title, form) });
  }
  const headword = chooseHeadword(title, listed, source.headword);
  const forms = listed.filter((f) => f.form !== headword);
  if (headword !== title) forms.unshift({ form: title, kind: 'spelling' });
  const notes: string[] = [];
  if (headword !== title) notes.push('tone-marked citation form chosen as the headword');
  const byPos = new Map<string, LexRecord>();
  for (const block of blocks) {
    const own = languageRules(source.language).wiktionaryPartOfSpeech?.(block.pos, block.glosses);
    const partOfSpeech = own ?? KAIKKI_POS[block.pos] ?? 'other';
    if (own !== undefined && own !== KAIKKI_POS[block.pos]) notes.push(`"${block.pos}" read as ${own} (the language's own reading of the header)`);
    if (own === undefined && !(block.pos in KAIKKI_POS)) notes.push(`unknown part of speech "${block.pos}" mapped to other`);
    const seen = byPos.get(partOfSpeech);
    if (seen) {
      for (const g of block.glosses) if (!seen.senses.includes(g)) seen.senses.push(g);
      continue;
    }
    byPos.set(partOfSpeech, {
      sourceId: source.id,
      language: source.language,
      exactForm: headword,
      partOfSpeech,
      etymologyNumber: null,
      pronunciation: null,
      senses: [...block.glosses],
      examples: [],
      variants: [],
      derived: [],
      components: [],
      crossReferences: [],
      stems: [],
      verified: source.verified,
      forms,
      toneMarked: hasDiacritics(headword),
    });
  }
  const [record, ...extra] = byPos.values();
  if (extra.length > 0) notes.push('record with several parts of speech split into one entry each');
  return { kind: 'lexicon', record, extra, notes };
}

/** One `.tsv` line → its entries, or a rejection. Pure. */
export function importWiktionaryLine(line: string, source: WiktionaryContext): Outcome {
  const text = line.replace(/\r$/, '');
  const tab = text.indexOf('\t');
  if (tab < 0) return { kind: 'rejected', reason: 'malformed line (not KEY<TAB>HTML)' };
  const [title, ...forms] = text.slice(0, tab).split('|');
  const headword = normalise(title);
  if (headword === '') return { kind: 'rejected', reason: 'empty headword' };
  return articleRecords(headword, forms, text.slice(tab + 1), source);
}

export const wiktionaryTsv = defineImporter({
  options: HEADWORD_OPTIONS,
  read(source, into) {
    for (const line of readLines(into.file)) if (line.trim() !== '') into.lexicon(importWiktionaryLine(line, source));
  },
});
