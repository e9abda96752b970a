// Search results: tone-marked forms, part of speech, glosses and how each result matched, with pagination.
import type { BrowseLetter } from '../../../../snapshot/reader/snapshot.ts';
import type { Suggestion } from '../../../../snapshot/reader/suggestions.ts';
import type { Language, WordSummary } from '../../../shared/schemas.ts';
import type { SearchScope } from '../../../shared/vocabulary.ts';
import { FORM_MATCH_LABELS, langOf, partOfSpeechLabel, searchForm } from '../components.ts';
import type { ResultNote } from '../headword-spelling.ts';
import { html, queryString } from '../html.ts';
import type { Html } from '../html.ts';
import { layout } from '../layout.ts';
import type { AssetUrls } from '../layout.ts';
import { matchLabel } from '../match-label.ts';
import { markQuotedForms } from '../quoted-forms.ts';

export interface SearchPageInput {
  assets: AssetUrls;
  languages: readonly Language[];
  q: string;
  /** The resolved language filter (code), if any. */
  language?: string;
  /** What the text was matched with, when not both words and meanings. */
  scope?: Exclude<SearchScope, 'all'>;
  page: number;
  perPage: number;
  /** Absent when there was nothing to search for or the request was refused (see `problem`). */
  result?: { total: number; truncated: boolean; items: readonly WordSummary[]; suggestions?: readonly Suggestion[] };
  /** What each result's note says beyond its match type (headword spelling, matched spelling), by entry id. */
  notes?: ReadonlyMap<number, ResultNote>;
  /** The homograph number of each result spelled like other entries, by entry id. */
  homographNumbers?: ReadonlyMap<number, number>;
  /** A refused request, said in words (the page is then sent with status 400). */
  problem?: string;
  /** The last page a link may point at (the API's page bound). */
  maxPage: number;
  /** Browsing a language: its letter index, and the letter whose pages are shown, if one is chosen. */
  letters?: readonly BrowseLetter[];
  letter?: string;
}

export function searchPage(input: SearchPageInput): Html {
  const languageName = input.languages.find((l) => l.code === input.language)?.name;
  const active = input.languages.filter((l) => l.status === 'active').map((l) => l.name);
  const names = active.length > 1 ? `${active.slice(0, -1).join(', ')} or ${active[active.length - 1]}` : (active[0] ?? 'a language of the dictionary');
  const heading = input.q ? html`Results for “<span class="q">${input.q}</span>”` : html`Search`;
  const body = html`<h1>${heading}</h1>
${searchForm({ q: input.q, language: input.language, scope: input.scope, languages: input.languages, compact: Boolean(input.q || input.language) })}
${input.problem ? html`<div class="alert" role="alert"><p>${input.problem}</p></div>` : ''}
${input.letters && input.letters.length > 0 ? letterIndex(input, input.letters) : ''}
${input.result ? results(input, input.result, languageName) : ''}
${input.result?.suggestions?.length ? didYouMean(input, input.result.suggestions) : ''}
${!input.q && !input.problem ? html`<p>Type a word in ${names} (tone marks optional) or an English meaning.</p>` : ''}`;
  return layout({
    title: input.q ? `“${input.q}”` : 'Search',
    section: 'search',
    description: `Search ${active.join(', ')} words with or without tone marks, or by English meaning.`,
    assets: input.assets,
    body,
    noindex: Boolean(input.q),
  });
}

function results(input: SearchPageInput, result: NonNullable<SearchPageInput['result']>, languageName?: string): Html {
  if (result.items.length === 0) {
    return html`<p role="status">No ${input.scope === 'headword' ? 'words written so' : input.scope === 'meaning' ? 'words with that English meaning' : 'words'} found${languageName ? html` in ${languageName}` : ''}${input.page > 1 ? html` on page ${input.page}` : ''}.
Try fewer letters, another spelling, ${input.scope ? 'or words and meanings both' : 'or an English word'}.</p>`;
  }
  const first = (input.page - 1) * input.perPage + 1;
  const last = first + result.items.length - 1;
  const totalText = `${result.truncated ? 'more than ' : ''}${result.total.toLocaleString('en-GB')}`;
  return html`<p role="status">Showing ${first}–${last} of ${totalText} ${result.total === 1 ? 'word' : 'words'}${languageName ? html` in ${languageName}` : ''}${input.letter ? ` under ${input.letter.toUpperCase()}` : ''}.</p>
<ol class="results" start="${first}">
${result.items.map((w) => resultItem(w, input))}
</ol>
${pagination(input, result.total)}`;
}

/**
 * Near spellings of a query that found few words: links that search for each in its language, in the page's
 * reading order after the results, so that a keyboard reaches them with Tab.
 */
function didYouMean(input: SearchPageInput, suggestions: readonly Suggestion[]): Html {
  const showLanguage = !input.language && new Set(suggestions.map((s) => s.language)).size > 1;
  const name = (code: string): string => input.languages.find((l) => l.code === code)?.name ?? code;
  const links = suggestions.map((s, i) => {
    const href = `/search${queryString({ q: s.query, language: input.language ?? s.language, scope: input.scope })}`;
    const separator = i === 0 ? '' : i === suggestions.length - 1 ? ' or ' : ', ';
    return html`${separator}<a href="${href}" lang="${langOf(s.language)}">${s.text}</a>${showLanguage ? html` (${name(s.language)})` : ''}`;
  });
  return html`<nav class="suggestions" aria-label="Similar spellings"><p>Did you mean ${links}?</p></nav>`;
}

function resultItem(word: WordSummary, input: SearchPageInput): Html {
  const lang = langOf(word.language);
  // A list filtered by language says it once, above the list, not on every result.
  const languageName = input.language ? undefined : (input.languages.find((l) => l.code === word.language)?.name ?? word.language);
  const label = input.q ? matchLabel(word, input.q) : '';
  const note = input.notes?.get(word.id);
  const number = input.homographNumbers?.get(word.id);
  const forms = [word.exactForm, word.headword];
  return html`<li>
<a class="word" href="/words/${encodeURIComponent(word.slug)}" lang="${lang}">${word.exactForm}</a>${number === undefined ? '' : html`<sup class="homograph"><span class="visually-hidden">homograph </span>${number}</sup>`}
<p class="meta">${languageName ? html`<span>${languageName}</span>` : ''}<span class="tag">${partOfSpeechLabel(word.partOfSpeech)}</span>${matchTag(word, note, label, lang)}${word.isCommon ? html`<span class="tag">common</span>` : ''}${note?.spelling ? html`<span class="tag">${note.spelling.label}</span>` : ''}</p>
${word.glosses.length > 0 ? html`<p>${word.glosses.slice(0, 4).map((g, i) => html`${i > 0 ? '; ' : ''}${markQuotedForms(g, forms, lang)}`)}</p>` : ''}
</li>`;
}

/** Links to each letter of the language's browse order; the chosen letter is marked as the current one. */
function letterIndex(input: SearchPageInput, letters: readonly BrowseLetter[]): Html {
  const link = (letter?: string) => `/search${queryString({ language: input.language, letter })}`;
  return html`<nav class="letters" aria-label="Browse by letter"><ul>
<li>${input.letter === undefined ? html`<span aria-current="page">All</span>` : html`<a href="${link()}">All</a>`}</li>
${letters.map((l) =>
  l.letter === input.letter
    ? html`<li><span aria-current="page">${l.letter.toUpperCase()}</span></li>`
    : html`<li><a href="${link(l.letter)}" aria-label="${l.letter.toUpperCase()}: ${l.count.toLocaleString('en-GB')} ${l.count === 1 ? 'word' : 'words'}">${l.letter.toUpperCase()}</a></li>`,
)}
</ul></nav>`;
}

/** How the result matched: the spelling or the form of the entry the search found, where it is not the headword. */
function matchTag(word: WordSummary, note: ResultNote | undefined, label: string, lang: string): Html | '' {
  const text = note?.matched
    ? html`matched the spelling <span lang="${lang}">${note.matched}</span>`
    : note?.form
      ? html`matched ${FORM_MATCH_LABELS[note.form.kind]} <span lang="${lang}">${note.form.form}</span>`
      : label;
  return text ? html`<span class="tag match" data-match="${word.matchType}">${text}</span>` : '';
}

function pagination(input: SearchPageInput, total: number): Html | '' {
  const pages = Math.min(Math.max(1, Math.ceil(total / input.perPage)), input.maxPage);
  if (pages <= 1) return '';
  const link = (page: number) => `/search${queryString({ q: input.q, language: input.language, scope: input.scope, letter: input.letter, page: page > 1 ? page : undefined })}`;
  const shown = new Set([1, pages, input.page - 2, input.page - 1, input.page, input.page + 1, input.page + 2]);
  const numbers = [...shown].filter((p) => p >= 1 && p <= pages).sort((a, b) => a - b);
  const items: Html[] = [];
  let previous = 0;
  for (const p of numbers) {
    if (p - previous > 1) items.push(html`<li><span aria-hidden="true">…</span></li>`);
    items.push(
      p === input.page
        ? html`<li><span aria-current="page">${p}</span></li>`
        : html`<li><a href="${link(p)}" aria-label="Page ${p}">${p}</a></li>`,
    );
    previous = p;
  }
  return html`<nav class="pages" aria-label="Result pages"><ul>
${input.page > 1 ? html`<li><a href="${link(input.page - 1)}" rel="prev">Previous</a></li>` : ''}
${items}
${input.page < pages ? html`<li><a href="${link(input.page + 1)}" rel="next">Next</a></li>` : ''}
</ul></nav>`;
}
