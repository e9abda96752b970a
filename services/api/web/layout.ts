// The page shell every page shares: head, skip link, site navigation, main landmark, footer.
import { html } from './html.ts';
import type { Html, Interpolation } from './html.ts';

export const SITE_NAME = 'Open African Dictionary';

export type NavSection = 'home' | 'search' | 'developers' | 'docs' | 'about' | 'downloads' | 'none';

export interface AssetUrls {
  css: string;
  js: string;
  docsJs: string;
  favicon: string;
}

export interface LayoutInput {
  title: string;
  description?: string;
  section: NavSection;
  assets: AssetUrls;
  body: Interpolation;
  /** Scripts after the body (each served from our origin). site.js is added on every page. */
  scripts?: readonly string[];
  /** Canonical path of the page (entry pages: their stable URL). */
  canonicalPath?: string;
  /** Pages that must not be indexed (search results, 404, the key page). */
  noindex?: boolean;
}

const NAV: ReadonlyArray<{ section: NavSection; href: string; label: string }> = [
  { section: 'search', href: '/search', label: 'Search' },
  { section: 'developers', href: '/developers', label: 'Developers' },
  { section: 'docs', href: '/docs', label: 'API docs' },
  { section: 'about', href: '/about', label: 'About the data' },
  { section: 'downloads', href: '/downloads', label: 'Downloads' },
];

export function layout(input: LayoutInput): Html {
  const title = input.section === 'home' ? SITE_NAME : `${input.title} · ${SITE_NAME}`;
  const scripts = [input.assets.js, ...(input.scripts ?? [])];
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${input.description ? html`<meta name="description" content="${input.description}">` : ''}
${input.noindex ? html`<meta name="robots" content="noindex">` : ''}
${input.canonicalPath ? html`<link rel="canonical" href="${input.canonicalPath}">` : ''}
<link rel="stylesheet" href="${input.assets.css}">
<link rel="icon" href="${input.assets.favicon}" type="image/svg+xml">
</head>
<body>
<a class="skip" href="#main">Skip to main content</a>
<header class="site">
<nav aria-label="Site">
<a class="brand" href="/"${input.section === 'home' ? html` aria-current="page"` : ''}>${SITE_NAME}</a>
<ul>
${NAV.map(
  (item) =>
    html`<li><a href="${item.href}"${item.section === input.section ? html` aria-current="page"` : ''}>${item.label}</a></li>`,
)}
</ul>
</nav>
</header>
<main id="main" tabindex="-1">
${input.body}
</main>
<footer class="site"><div>
<p>Words, senses and examples come from openly licensed corpora; every entry names its source and licence.
<a href="/about">About the data</a> · <a href="/downloads">Download the data</a> · <a href="/developers">Get an API key</a> · <a href="/docs">API reference</a></p>
</div></footer>
${scripts.map((src) => html`<script src="${src}" defer></script>`)}
</body>
</html>
`;
}
