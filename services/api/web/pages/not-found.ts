// The 404 page: says what was not found and offers a search for it.
import type { Language } from '../../../shared/schemas.ts';
import { searchForm } from '../components.ts';
import { html } from '../html.ts';
import type { Html } from '../html.ts';
import { layout } from '../layout.ts';
import type { AssetUrls } from '../layout.ts';

export interface NotFoundInput {
  assets: AssetUrls;
  languages: readonly Language[];
  /** The slug asked for, when the request was for an entry. */
  slug?: string;
}

export function notFoundPage(input: NotFoundInput): Html {
  const guess = input.slug ? searchTextFromSlug(input.slug) : '';
  const body = html`<h1>${input.slug ? 'No entry at this address' : 'Page not found'}</h1>
${input.slug
    ? html`<p>There is no entry <code>${input.slug}</code>. Entry addresses are stable, so the link may have been mistyped.
Search for the word instead:</p>`
    : html`<p>There is no page at this address. Search the dictionary, or start from the <a href="/">home page</a>.</p>`}
${searchForm({ q: guess, languages: input.languages, idPrefix: 'nf' })}
<p><a href="/">Home</a> · <a href="/about">About the data</a> · <a href="/developers">Developers</a></p>`;
  return layout({ title: 'Not found', section: 'none', assets: input.assets, body, noindex: true });
}

/** Slugs are the folded form plus a disambiguator (omi-2): the words are a fair search. */
export function searchTextFromSlug(slug: string): string {
  return slug
    .replace(/-\d+$/, '')
    .replace(/[-_]+/g, ' ')
    .trim()
    .slice(0, 100);
}
