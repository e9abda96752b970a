// Igbo API definitions: "see X" cross-references and example sentences merged into the definition text.

/** `see X`, `see under X`, `see also X`, with an optional trailing sense reference (`1.`, `1.B.`, `+ 1.`). */
const CROSS_REFERENCE = /^see\s+(?:under\s+|also\s+)?(.+?)(?:\s+\+?\s*\d+(?:\.[A-Z0-9]+)*\.?)?$/i;

/** Candidate target of a definition that reads like a cross-reference; linked only if it names an entry. */
export function crossReferenceTarget(definition: string): string | null {
  const match = CROSS_REFERENCE.exec(definition.trim());
  return match ? match[1].trim() : null;
}

/** A word counts as Igbo when it carries a tone mark, underdot, macron or dot above, or the letter ŋ. */
function isMarked(word: string): boolean {
  return /[\u0300-\u036f]/.test(word.normalize('NFD')) || /ŋ/i.test(word);
}

/** English words nearly every English sentence holds, and no Igbo one does (Igbo a, m, na, o are not among them). */
const ENGLISH_FUNCTION_WORDS = new Set(
  'the to of and is are was were be been it he she they we you i me my your his her our their this that what who when why how do does did not will would can could have has had for with in on at by from if as'.split(' '),
);
/** A segment with at least this share of them is English; below it, a segment of unmarked words is still Igbo. */
const ENGLISH_SENTENCE_SHARE = 0.2;

function englishShare(words: readonly string[]): number {
  const hits = words.filter((w) => ENGLISH_FUNCTION_WORDS.has(w.toLowerCase().replace(/[^\p{L}]/gu, ''))).length;
  return words.length === 0 ? 0 : hits / words.length;
}

function startsCapitalised(word: string): boolean {
  return /^[\p{Lu}]/u.test(word);
}

interface Segment {
  words: string[];
  igbo: boolean;
}

/**
 * Splits text (already known to follow the gloss) into sentence-like segments at capitalised words
 * outside parentheses; a segment is Igbo when at least half of its words are marked, or when some are and too few
 * are English function words for an English sentence (ENGLISH_SENTENCE_SHARE).
 */
function segments(words: string[]): Segment[] {
  const out: string[][] = [];
  let depth = 0;
  for (const word of words) {
    if (depth === 0 && startsCapitalised(word) && out.length > 0 && out[out.length - 1].length > 0) out.push([]);
    if (out.length === 0) out.push([]);
    out[out.length - 1].push(word);
    depth += (word.match(/\(/g) ?? []).length - (word.match(/\)/g) ?? []).length;
    if (depth < 0) depth = 0;
  }
  return out.map((w) => {
    const marked = w.filter(isMarked).length;
    return { words: w, igbo: marked * 2 >= w.length || (marked > 0 && w.length >= 3 && englishShare(w) < ENGLISH_SENTENCE_SHARE) };
  });
}

export interface SplitDefinition {
  definition: string;
  examples: { text: string; translation: string }[];
}

/**
 * Williamson's text often runs examples into the definition: "lie flat on the back Òfô sì mù chàlụ āba
 * Ọfọ asked me to lie flat on my back". The definition ends before the first capitalised segment that is Igbo
 * (half its words marked) and followed by an English one; the rest becomes (Igbo, English) pairs. Text without
 * such a pair is left alone: a wrong split is worse than an unsplit definition. A text that is such pairs from its first
 * word defines nothing: its definition is empty.
 */
export function splitMergedExamples(text: string): SplitDefinition {
  const words = text.split(' ');
  let depth = 0;
  for (let i = 0; i < words.length; i++) {
    if (i > 0) depth += (words[i - 1].match(/\(/g) ?? []).length - (words[i - 1].match(/\)/g) ?? []).length;
    // A capitalised word starts a sentence; whether it is Igbo is its segment's (Ò kpukpùlù … starts with plain O).
    if (depth > 0 || !startsCapitalised(words[i])) continue;
    const segs = segments(words.slice(i));
    if (segs.length < 2 || !segs[0].igbo || segs[1].igbo) continue;
    const examples: { text: string; translation: string }[] = [];
    let pending: string[] | null = null;
    for (const seg of segs) {
      if (seg.igbo) {
        pending = pending ? [...pending, ...seg.words] : seg.words;
      } else if (pending) {
        examples.push({ text: pending.join(' '), translation: seg.words.join(' ') });
        pending = null;
      } else if (examples.length > 0) {
        const last = examples[examples.length - 1];
        last.translation = `${last.translation} ${seg.words.join(' ')}`;
      }
    }
    const definition = words.slice(0, i).join(' ').replace(/[\s:;,]+$/, '');
    if (examples.length === 0) return { definition: text, examples: [] };
    // From the first word: the "definition" is an example only (ànyị: "Ànyị nò ebe à We are here").
    return { definition, examples };
  }
  return { definition: text, examples: [] };
}
