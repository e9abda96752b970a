// The 429 page of the website's allowance of pages per address (guards/page-allowance.ts): what happened, how
// long to wait, and the ways in that have no such limit for a program (a key, the downloads).
import { PAGE_BURST, PAGES_PER_SECOND } from '../../guards/page-allowance.ts';
import { html } from '../html.ts';
import type { Html } from '../html.ts';
import { layout } from '../layout.ts';
import type { AssetUrls } from '../layout.ts';

export function tooManyPagesPage(assets: AssetUrls): Html {
  const body = html`<h1>Too many pages at once</h1>
<p>Your network address asked for more pages than one address may in a short time (${String(PAGES_PER_SECOND)} a second, or ${String(PAGE_BURST)} at once). Wait a few seconds, then reload the page.</p>
<p>A school or office shares one address between all its computers, so others near you may be using the site too.</p>
<p>To use the dictionary from a program, <a href="/developers">get a free API key</a>, or <a href="/downloads">download the data</a>.</p>`;
  return layout({ title: 'Too many pages at once', section: 'none', assets, body, noindex: true });
}
