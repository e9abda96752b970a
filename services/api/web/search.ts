// The website's search: the query read and checked the way the API checks it, answered with a page that explains
// rather than an error body.
import type { Deps } from '../deps.ts';
import { MAX_QUERY_CHARS, SCOPE_OPTIONS, scopeChoice } from './components.ts';
import type { HeadwordSpellings, ResultNote } from './headword-spelling.ts';
import type { Homographs } from './homographs.ts';
import type { Html } from './html.ts';
import type { AssetUrls } from './layout.ts';
import { searchPage } from './pages/search.ts';

/** Results per search page. */
export const SEARCH_PAGE_SIZE = 20;
/** The API's page bound (spec: page values above 10,000 are rejected). */
export const MAX_SEARCH_PAGE = 10_000;

function first(value: unknown): string {
  if (Array.isArray(value)) return first(value[0]);
  return typeof value === 'string' ? value : '';
}

/** Validates the query the way the API does, but answers with a page that explains, not an error body. */
export function renderSearch(
  deps: Deps,
  assets: AssetUrls,
  query: Readonly<Record<string, unknown>>,
  spellings: HeadwordSpellings,
  homographs: Homographs,
): { page: Html; status: number } {
  const languages = deps.snapshot.languages();
  const q = first(query.q).trim().normalize('NFC');
  const languageParam = first(query.language).trim();
  const pageParam = first(query.page).trim() || '1';
  const letterParam = first(query.letter).trim().normalize('NFC');
  const scopeParam = first(query.scope).trim();
  const scope = scopeChoice(scopeParam);
  const base = { assets, languages, q, scope, page: 1, perPage: SEARCH_PAGE_SIZE, maxPage: MAX_SEARCH_PAGE };
  const language = languageParam ? deps.snapshot.findActiveLanguage(languageParam) : undefined;
  if (languageParam && !language) {
    const codes = languages.filter((l) => l.status === 'active').map((l) => l.code).join(', ');
    return { page: searchPage({ ...base, problem: `“${languageParam}” is not one of the languages searched here (${codes}).` }), status: 400 };
  }
  // "all" is the API's name of the default, which the form sends as no value.
  if (scopeParam !== '' && scopeParam !== 'all' && scope === undefined) {
    const choices = SCOPE_OPTIONS.map((o) => o.label).join(', ');
    return { page: searchPage({ ...base, language: language?.code, problem: `“${scopeParam}” is not one of the choices of what to search in (${choices}).` }), status: 400 };
  }
  if (!/^\d{1,5}$/.test(pageParam) || Number(pageParam) < 1 || Number(pageParam) > MAX_SEARCH_PAGE) {
    return { page: searchPage({ ...base, language: language?.code, problem: `Page must be a whole number from 1 to ${MAX_SEARCH_PAGE.toLocaleString('en-GB')}.` }), status: 400 };
  }
  if (q.length > MAX_QUERY_CHARS) {
    return { page: searchPage({ ...base, q: q.slice(0, MAX_QUERY_CHARS), language: language?.code, problem: `Search text can be at most ${MAX_QUERY_CHARS} characters long.` }), status: 400 };
  }
  const page = Number(pageParam);
  // Without text, a chosen language is browsed alphabetically; with neither, there is nothing to list.
  if (!q && !language) return { page: searchPage({ ...base, page }), status: 200 };
  // Browsing a language: its letter index, and a letter's own pages when one is chosen.
  const letters = !q && language ? deps.snapshot.browseLetters(language.code) : undefined;
  const letter = letters && letterParam ? letters.find((l) => l.letter === letterParam.toLowerCase())?.letter : undefined;
  if (letters && letterParam && letter === undefined) {
    return { page: searchPage({ ...base, language: language?.code, letters, problem: `No ${language?.name} words are listed under “${letterParam.slice(0, 8)}”: choose a letter below.` }), status: 400 };
  }
  const result = deps.snapshot.search({ q: q || undefined, language: language?.code, letter, scope, page, limit: SEARCH_PAGE_SIZE });
  const notes = new Map<number, ResultNote>();
  const numbers = new Map<number, number>();
  for (const item of result.items) {
    const note = spellings.noteFor(item, q, (slug) => deps.snapshot.entry(slug));
    if (note) notes.set(item.id, note);
    const number = homographs.numberOf(item.language, item.exactForm, item.id);
    if (number !== undefined) numbers.set(item.id, number);
  }
  return { page: searchPage({ ...base, language: language?.code, letters, letter, page, result, notes, homographNumbers: numbers }), status: 200 };
}
