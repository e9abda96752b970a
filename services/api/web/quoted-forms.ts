// Words of a dictionary language quoted inside English text (glosses, senses), marked with their lang.
import { html } from './html.ts';
import type { Html } from './html.ts';

/** A letter or mark on either side means the match is part of a longer word. */
const WORD_CHAR = '[\\p{L}\\p{M}\\p{N}]';

/**
 * Marks, inside `text`, each occurrence of one of `forms` as a whole word or phrase with `lang`. The forms
 * are the entry's own (its headword, variants, related forms, stems): the source lists them as words of
 * the entry's language, so the source, not a guess, says what language they are. Only forms with a letter
 * beyond ASCII are sought (a tone mark, an underdot, a hooked letter): a plain form such as "a" or "do" is
 * also an English word, and marking it would mislabel the English around it.
 */
export function markQuotedForms(text: string, forms: Iterable<string>, lang: string): Html {
  const sought = [...new Set(forms)].filter((f) => f.length > 1 && /[^\x00-\x7f]/.test(f) && text.includes(f));
  if (sought.length === 0) return html`${text}`;
  // Longest first, so that a phrase wins over a word inside it.
  sought.sort((a, b) => b.length - a.length);
  const pattern = new RegExp(`(?<!${WORD_CHAR})(?:${sought.map(escapeRegExp).join('|')})(?!${WORD_CHAR})`, 'gu');
  const parts: Html[] = [];
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    const start = match.index ?? 0;
    parts.push(html`${text.slice(at, start)}<span lang="${lang}">${match[0]}</span>`);
    at = start + match[0].length;
  }
  parts.push(html`${text.slice(at)}`);
  return html`${parts}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
