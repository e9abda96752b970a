// FTS5 MATCH expressions built from user text: every token quoted, so search text is never query syntax.
import { languageTag, partOfSpeechTag } from '../format/format.ts';

/** Quotes one token as an FTS5 string (double quotes doubled); tokens hold only letters/marks/digits. */
function quote(token: string): string {
  return `"${token.replace(/"/g, '""')}"`;
}

export interface MatchFilters {
  language?: string;
  partOfSpeech?: string;
}

function tagFilter(filters: MatchFilters): string {
  const parts: string[] = [];
  if (filters.language) parts.push(`tags : ${quote(languageTag(filters.language))}`);
  if (filters.partOfSpeech) parts.push(`tags : ${quote(partOfSpeechTag(filters.partOfSpeech))}`);
  return parts.length > 0 ? ` AND ${parts.join(' AND ')}` : '';
}

/**
 * All tokens must be present in `columns`; the last one may be a prefix (`"tok" *`). Alternatives (e.g.
 * the folded and the l/r-loose spelling) are OR-ed. Returns null when there is nothing to search for.
 */
export function matchExpression(
  columns: readonly string[],
  alternatives: readonly (readonly string[])[],
  filters: MatchFilters,
  lastIsPrefix: boolean,
): string | null {
  const groups = alternatives
    .filter((tokens) => tokens.length > 0)
    .map((tokens) => tokens.map((t, i) => (i === tokens.length - 1 && lastIsPrefix ? `${quote(t)} *` : quote(t))).join(' AND '));
  const unique = [...new Set(groups)];
  if (unique.length === 0) return null;
  const target = columns.length === 1 ? columns[0] : `{${columns.join(' ')}}`;
  return `${target} : (${unique.map((g) => `(${g})`).join(' OR ')})${tagFilter(filters)}`;
}
