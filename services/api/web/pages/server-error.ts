// The 500 page: no detail of the failure reaches the visitor (it is in the server log).
import { html } from '../html.ts';
import type { Html } from '../html.ts';
import { layout } from '../layout.ts';
import type { AssetUrls } from '../layout.ts';

export function serverErrorPage(assets: AssetUrls): Html {
  const body = html`<h1>Something went wrong</h1>
<p>This page could not be shown. Please try again in a moment, or go back to the <a href="/">home page</a>.</p>`;
  return layout({ title: 'Error', section: 'none', assets, body, noindex: true });
}
