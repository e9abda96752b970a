// Importer for FreeDict TEI dictionaries: headwords of the language with English definitions (swh-eng), or with
// English translations and no part of speech (afr-eng, `mergeByHeadword`).
import { SaxesParser } from 'saxes';
import { z } from 'zod';

import { normalise } from '../../format/text.ts';
import { languageRules } from '../../languages/index.ts';
import { FormatError } from '../read/errors.ts';
import { readTextLines } from '../read/files.ts';
import type { AltRecord, LexRecord, Outcome, ReverseOutcome, SourceContext } from '../records.ts';
import { defineImporter } from './importer.ts';
import { FREEDICT_POS } from './parts-of-speech.ts';

/** A TEI element as far as the importer needs it: name, attributes, text and children. */
interface Element {
  name: string;
  attributes: Record<string, string>;
  children: (Element | string)[];
}

export interface TeiEntry {
  type: string | null;
  orths: string[];
  pos: string | null;
  /** Subcategories (`<subc>`): caus, infl (an inflected form: hakuna, nina), imp (an imperative: nenda)… */
  subc: string[];
  /** Cross-references by type (plural-form, cf, syn…): the forms they point at. */
  xrs: { type: string; forms: string[] }[];
  defs: string[];
  /** Each `<sense>`'s translations (`<cit type="trans"><quote>`), where the edition gives translations, not definitions. */
  translations: string[][];
  /** `<note type="def">` of plural entries: its text and the forms it links. */
  noteDefs: { text: string; refs: string[] }[];
}

const textOf = (e: Element | string): string => (typeof e === 'string' ? e : e.children.map(textOf).join(''));
function* descendants(e: Element, name: string): Generator<Element> {
  for (const c of e.children) {
    if (typeof c === 'string') continue;
    if (c.name === name) yield c;
    yield* descendants(c, name);
  }
}

function toEntry(e: Element): TeiEntry {
  const all = (name: string): Element[] => [...descendants(e, name)];
  const clean = (s: string): string => normalise(s);
  return {
    type: e.attributes.type ?? null,
    orths: all('orth').map(textOf).map(clean).filter(Boolean),
    pos: all('pos').map(textOf).map(clean)[0] ?? null,
    subc: all('subc').map(textOf).map(clean).filter(Boolean),
    xrs: all('xr').map((x) => ({ type: x.attributes.type ?? '', forms: [...descendants(x, 'ref')].map(textOf).map(clean).filter(Boolean) })),
    defs: all('def').map(textOf).map(clean).filter(Boolean),
    translations: all('sense')
      .map((sense) => [...descendants(sense, 'cit')].filter((c) => c.attributes.type === 'trans').flatMap((c) => [...descendants(c, 'quote')].map(textOf).map(clean)))
      .map((quotes) => quotes.filter(Boolean))
      .filter((quotes) => quotes.length > 0),
    noteDefs: all('note')
      .filter((n) => n.attributes.type === 'def')
      .map((n) => ({ text: clean(textOf(n)), refs: [...descendants(n, 'ref')].map(textOf).map(clean) })),
  };
}

/** The `<entry>` elements of a TEI document, in order (the whole file is a few MB). */
export function parseTeiEntries(xml: string, file = 'input'): TeiEntry[] {
  const parser = new SaxesParser();
  const stack: Element[] = [];
  const entries: TeiEntry[] = [];
  parser.on('opentag', (tag) => {
    const element: Element = { name: tag.name, attributes: tag.attributes as Record<string, string>, children: [] };
    stack[stack.length - 1]?.children.push(element);
    if (tag.name === 'entry' || stack.length > 0) stack.push(element);
  });
  parser.on('text', (text) => stack[stack.length - 1]?.children.push(text));
  parser.on('closetag', (tag) => {
    if (stack.length === 0) return;
    const element = stack.pop();
    if (tag.name === 'entry' && stack.length === 0 && element) entries.push(toEntry(element));
  });
  try {
    parser.write(xml).close();
  } catch (cause) {
    throw new FormatError(`${file}: not TEI XML (${(cause as Error).message})`);
  }
  return entries;
}

/** "Plural of X: gloss" */
const PLURAL_NOTE = /^Plural of\s+(.+?)\s*:\s*(.*)$/i;

/** One swh-eng entry → an entry, a plural leading to its singular's entry, or a rejection. Pure. */
export function importFreedictEntry(entry: TeiEntry, source: SourceContext): Outcome {
  const form = entry.orths[0];
  if (form === undefined) return { kind: 'rejected', reason: 'entry without <orth>' };
  const partOfSpeech = (entry.pos && FREEDICT_POS[entry.pos]) || 'other';
  const notes = entry.pos && !(entry.pos in FREEDICT_POS) ? [`unknown part of speech "${entry.pos}" mapped to other`] : [];
  // FreeDict gives a verb (`v`, not the copulas `cop`) as its stem; the language may look it up by another form. An
  // inflected form or an imperative (`<subc>infl</subc>` hakuna "there is not", `imp` nenda "go!") is no stem.
  const inflected = entry.subc.some((s) => s === 'infl' || s === 'imp' || s === 'neg');
  const citation = entry.pos === 'v' && !inflected ? languageRules(source.language).verbCitation?.(form) : undefined;
  if (citation !== undefined && citation !== form) notes.push('verb given as its stem: served by its infinitive, the stem kept as a form');
  const senses = [...entry.defs];
  const singulars: string[] = [];
  for (const note of entry.noteDefs) {
    const plural = PLURAL_NOTE.exec(note.text);
    if (plural) {
      singulars.push(...(note.refs.length > 0 ? note.refs : [plural[1]]));
      if (plural[2] !== '' && !senses.includes(plural[2])) senses.push(plural[2]);
    } else if (note.text !== '' && !senses.includes(note.text)) senses.push(note.text);
  }
  if (senses.length === 0) return { kind: 'rejected', reason: 'no English definition' };
  const record: LexRecord = {
    sourceId: source.id,
    language: source.language,
    exactForm: citation ?? form,
    partOfSpeech,
    etymologyNumber: null,
    pronunciation: null,
    senses,
    examples: [],
    variants: [],
    derived: [],
    components: [],
    crossReferences: [],
    stems: [],
    verified: source.verified,
    forms: [
      ...(citation !== undefined && citation !== form ? [{ form, kind: 'stem' as const }] : []),
      ...entry.orths.slice(1).map((f) => ({ form: f, kind: 'spelling' as const })),
      ...entry.xrs.filter((x) => x.type === 'plural-form').flatMap((x) => x.forms.map((f) => ({ form: f, kind: 'plural' as const }))),
    ],
  };
  if (singulars.length > 0) {
    // A plural entry is a form of its singular: it leads there (matchType form), and stands alone only when
    // the singular is missing.
    const alt: AltRecord = {
      sourceId: source.id,
      language: source.language,
      form,
      partOfSpeech,
      targets: singulars,
      kind: 'plural',
      fallback: record,
      missingTargetReason: 'plural of a missing entry',
    };
    return { kind: 'alt', record: alt, notes };
  }
  return { kind: 'lexicon', record, notes };
}

/** FreeDict's hyphen is U+2010 (`A‐bom`, `Anglo‐Saxon`): the ASCII one, as the other sources and queries write it. */
export function freedictText(text: string): string {
  return text.replace(/\u2010/g, '-');
}

/** Why a word of the language is no headword: a phrase's placeholder (`...`, `... gelede`), or no letter at all. */
export function refusedHeadword(form: string): string | null {
  if (form.includes('...')) return "a phrase's placeholder (...), not a word";
  if (!/\p{L}/u.test(form)) return 'headword without a letter';
  return null;
}

/**
 * afr-eng cut its multiword phrases down to one of their words, keeping the phrase's English: such an entry repeats
 * a headword of the list (gaan "go", then gaan "halt, come to a halt, stop"; tot "until", then tot "bye"; aan, then
 * aan "on the other hand"), so a headword's later entries are refused rather than served as senses of the word.
 */
export const REPEATED_HEADWORD =
  "a later entry of a headword the list already gave: the English of a phrase cut down to this word (gaan 'halt, stop', tot 'bye')";

/**
 * One entry of a translation list without parts of speech (afr-eng) → its senses (each `<sense>`'s translations,
 * joined as one gloss), to join the entry of the same word (snapshot/compiler/reverse.ts), or a rejection; `seen`
 * holds the headwords of the entries before it (REPEATED_HEADWORD).
 */
export function importFreedictTranslations(entry: TeiEntry, source: SourceContext, seen: Set<string> = new Set()): ReverseOutcome {
  // A stray comma after the word (`bak,`) is not part of it.
  const form = freedictText(entry.orths[0] ?? '').replace(/,+$/, '');
  if (form === '') return { kind: 'rejected', reason: 'entry without <orth>' };
  const refused = refusedHeadword(form);
  if (refused) return { kind: 'rejected', reason: refused };
  if (seen.has(form)) return { kind: 'rejected', reason: REPEATED_HEADWORD };
  seen.add(form);
  const senses = [...new Set(entry.translations.map((quotes) => [...new Set(quotes.map(freedictText))].join(', ')))];
  if (senses.length === 0) return { kind: 'rejected', reason: 'no English translation' };
  return { kind: 'reverse', record: { sourceId: source.id, language: source.language, form, senses, partOfSpeech: null } };
}

export const FREEDICT_OPTIONS = z.object({
  /**
   * A translation list without parts of speech (afr-eng): each headword's senses join the entry of the same word
   * in the sources listed before it, or make a new entry (part of speech `other`) where there is none.
   */
  mergeByHeadword: z.boolean().default(false),
});

export const freedictTei = defineImporter({
  options: FREEDICT_OPTIONS,
  read(source, into) {
    const seen = new Set<string>();
    for (const entry of parseTeiEntries(readTextLines(into.file).join('\n'), into.file)) {
      if (source.mergeByHeadword) into.reverse(importFreedictTranslations(entry, source, seen));
      else into.lexicon(importFreedictEntry(entry, source));
    }
  },
});
