// Rendering tests of the website's pages as pure functions: escaping, lang attributes, headings, sizes, 404.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

import { escapeHtml, html, raw, safeUrl } from '../../services/api/web/html.ts';
import { aboutPage } from '../../services/api/web/pages/about.ts';
import { developersPage, keyCreatedPage } from '../../services/api/web/pages/developers.ts';
import { buildOpenApiDocument } from '../../services/api/openapi/document.ts';
import { ROUTES } from '../../services/api/routes.ts';
import { docsPage } from '../../services/api/web/pages/docs.ts';
import { MAX_EXAMPLES_SHOWN, entryPage } from '../../services/api/web/pages/entry.ts';
import { homePage } from '../../services/api/web/pages/home.ts';
import { notFoundPage, searchTextFromSlug } from '../../services/api/web/pages/not-found.ts';
import { searchPage } from '../../services/api/web/pages/search.ts';
import { ASSETS, HOSTILE, LANGUAGES, headingsInOrder, summary, yorubaEntry } from './fixtures.ts';

const CSS_BYTES = readFileSync(new URL('../../services/api/web/assets/site.css', import.meta.url)).length;
const ENTRY_PAGE_BUDGET_BYTES = 50 * 1024;

function assertNoInjectedMarkup(page: string): void {
  assert.ok(!page.includes('<script>alert'), 'raw <script> from data');
  assert.ok(!page.includes('<img src=x'), 'raw <img> from data');
  assert.ok(!page.includes('"\'>'), 'attribute break-out from data');
}

describe('html', () => {
  it('html - escapes every interpolated string, in text and attributes', () => {
    const out = html`<a title="${HOSTILE}">${HOSTILE}</a>`.value;
    assert.equal(out, `<a title="${escapeHtml(HOSTILE)}">${escapeHtml(HOSTILE)}</a>`);
    assert.ok(!out.slice(15).includes('<script>'), out);
  });

  it('html - keeps nested fragments, joins lists, drops empty values', () => {
    const out = html`<ul>${['a<', 'b'].map((x) => html`<li>${x}</li>`)}</ul>${null}${undefined}${false}${raw('<br>')}`.value;
    assert.equal(out, '<ul><li>a&lt;</li><li>b</li></ul><br>');
  });

  it('html - escapes the five characters that end text or quoted attributes', () => {
    assert.equal(escapeHtml(`&<>"'\``), '&amp;&lt;&gt;&quot;&#39;&#96;');
  });

  it('safeUrl - accepts http(s) and refuses javascript:, data: and garbage', () => {
    assert.equal(safeUrl('https://example.org/a?b=c'), 'https://example.org/a?b=c');
    for (const bad of ['javascript:alert(1)', ' JavaScript:alert(1)', 'data:text/html,x', 'not a url', '', null]) {
      assert.equal(safeUrl(bad), undefined, String(bad));
    }
  });
});

describe('entry page', () => {
  it('entry page - reports a mistake to the operator with the entry named, or says why it cannot', () => {
    const entry = yorubaEntry();
    const withContact = entryPage({ assets: ASSETS, entry, contact: { text: 'ops@example.org', href: 'mailto:ops@example.org' } }).value;
    const href = withContact.match(/<a href="(mailto:ops@example\.org\?[^"]+)">Report a mistake in this entry<\/a>/)?.[1] ?? assert.fail(withContact);
    const subject = new URLSearchParams(href.replace(/&amp;/g, '&').split('?')[1]).get('subject');
    assert.equal(subject, `Mistake in ọmọ (Yoruba, noun, entry ${entry.id})`);
    const withUrl = entryPage({ assets: ASSETS, entry, contact: { text: 'https://example.org/contact', href: 'https://example.org/contact' } }).value;
    assert.match(withUrl, /<a href="https:\/\/example\.org\/contact">Report a mistake in this entry<\/a>/);
    const without = entryPage({ assets: ASSETS, entry }).value;
    assert.doesNotMatch(without, /Report a mistake in this entry/);
    assert.match(without, /This service has not published a contact address yet; the entry comes from [^<]+, whose maintainers can correct it/);
    assert.match(without, /data-full-link="\/words\/[^"]+"/);
  });
  it('entry page - names the source and licence of a sense and of an inflection table from another source', () => {
    const base = yorubaEntry();
    const freedict = { id: 'freedict-test', name: 'FreeDict Test', url: 'https://freedict.org', attribution: 'FreeDict contributors' };
    const gpl = { name: 'GNU General Public License v2.0 or later', spdx: 'GPL-2.0-or-later', url: 'https://www.gnu.org/licenses/gpl-2.0' };
    const entry = yorubaEntry({
      senses: [...base.senses, { number: base.senses.length + 1, definition: 'offspring', source: freedict, licence: gpl }],
      inflections: [{ total: 300, forms: [{ form: 'àwọn ọmọ', features: 'N;PL' }], source: freedict, licence: gpl }],
    });
    const page = entryPage({ assets: ASSETS, entry }).value;
    assert.match(page, /offspring <span class="muted">\(FreeDict Test, GNU General Public License v2\.0 or later\)<\/span>/);
    assert.match(page, /<h2>Inflected forms<\/h2>/);
    assert.match(page, /<span lang="yo">àwọn ọmọ<\/span> <span class="muted">\(N;PL\)<\/span>/);
    assert.match(page, /1 of 300 forms; a search for any of them finds this entry\. FreeDict Test, GNU General Public License v2\.0 or later\./);
    assert.match(page, /<h3>From other sources<\/h3>/);
  });
  it('entry page - shows the tone-marked headword marked lang="yo", glosses, examples, variants and licence', () => {
    const page = entryPage({ assets: ASSETS, entry: yorubaEntry() }).value;
    assert.match(page, /<h1 class="headword" lang="yo">ọmọ<\/h1>/);
    assert.match(page, /<p lang="yo">Ọmọ náà ń sùn\.<\/p>/);
    assert.match(page, /The child is sleeping\./);
    assert.match(page, /<span lang="yo">ọ̀mọ<\/span>/);
    assert.match(page, /<a href="\/words\/omode" lang="yo">ọmọdé<\/a>/);
    assert.match(page, /Creative Commons Attribution-ShareAlike 4\.0/);
    assert.match(page, /Wiktionary contributors, CC BY-SA 4\.0/);
    assert.match(page, /Ishola &amp; Zeman \(2020\)/, 'the example source is credited too');
    assert.match(page, /<link rel="canonical" href="\/words\/omo">/);
    assert.ok(headingsInOrder(page), 'headings in order');
  });

  it('entry page - escapes hostile data in every field', () => {
    const entry = yorubaEntry({
      headword: HOSTILE,
      exactForm: HOSTILE,
      slug: HOSTILE,
      pronunciation: HOSTILE,
      glosses: [HOSTILE],
      senses: [{ number: 1, definition: HOSTILE }],
      variants: [{ form: HOSTILE, kind: 'variant', note: HOSTILE }],
      forms: [{ form: HOSTILE, kind: 'form' }],
      pronunciations: [{ ipa: HOSTILE, source: { id: 'x', name: HOSTILE, url: 'javascript:alert(1)', attribution: HOSTILE }, licence: { spdx: HOSTILE, name: HOSTILE, url: HOSTILE } }],
      derived: [{ form: HOSTILE, relation: 'derived', id: 1, slug: HOSTILE }],
      stems: [HOSTILE],
      source: { id: 'x', name: HOSTILE, url: 'javascript:alert(1)', attribution: HOSTILE },
      licence: { spdx: HOSTILE, name: HOSTILE, url: HOSTILE },
    });
    const page = entryPage({ assets: ASSETS, entry }).value;
    assertNoInjectedMarkup(page);
    assert.ok(!page.includes('javascript:'), 'a javascript: source URL is not linked');
  });

  it('entry page - stays under 50 KB of HTML and CSS with hundreds of examples and long senses', () => {
    const example = yorubaEntry().examples[0];
    const entry = yorubaEntry({
      examples: Array.from({ length: 300 }, (_, i) => ({ ...example, text: `${example.text} ${'ẹ̀'.repeat(60)} ${i}`, translation: 'x'.repeat(200) })),
      senses: Array.from({ length: 30 }, (_, i) => ({ number: i + 1, definition: 'a long definition '.repeat(10) })),
    });
    const page = entryPage({ assets: ASSETS, entry }).value;
    const bytes = Buffer.byteLength(page) + CSS_BYTES;
    assert.ok(bytes < ENTRY_PAGE_BUDGET_BYTES, `entry page is ${bytes} bytes with CSS`);
    assert.equal([...page.matchAll(/<li>\n<p lang="yo">/g)].length, MAX_EXAMPLES_SHOWN);
    assert.match(page, /280 more examples are available/);
  });
});

describe('search page', () => {
  it('search page - shows each result with its form, part of speech, glosses and how it matched', () => {
    const items = [
      summary({ matchType: 'exact' }),
      summary({ id: 2, slug: 'omo-2', exactForm: 'ọ̀mọ̀', matchType: 'folded' }),
      summary({ id: 3, slug: 'omode', exactForm: 'ọmọdé', matchType: 'prefix', glosses: ['water'] }),
      summary({ id: 4, slug: 'x', matchType: 'variant' }),
      summary({ id: 5, slug: 'y', matchType: 'gloss' }),
    ];
    const page = searchPage({ assets: ASSETS, languages: LANGUAGES, q: 'omo', page: 1, perPage: 20, maxPage: 10_000, result: { total: 5, truncated: false, items } }).value;
    for (const label of ['exact match', 'matched without tone marks', 'starts with your search', 'matched a variant spelling', 'matched the English gloss']) {
      assert.ok(page.includes(label), label);
    }
    assert.match(page, /<a class="word" href="\/words\/omo-2" lang="yo">ọ̀mọ̀<\/a>/);
    assert.match(page, /water/);
    assert.match(page, /Showing 1–5 of 5 words/);
    assert.ok(!page.includes('rel="next"'), 'one page: no pagination');
    assert.ok(headingsInOrder(page));
  });

  it('search page - paginates with the query kept in every link', () => {
    const items = Array.from({ length: 20 }, (_, i) => summary({ id: i, slug: `w${i}` }));
    const page = searchPage({ assets: ASSETS, languages: LANGUAGES, q: 'a b&c', language: 'yo', page: 3, perPage: 20, maxPage: 10_000, result: { total: 1000, truncated: true, items } }).value;
    assert.match(page, /Showing 41–60 of more than 1,000 words in Yoruba/);
    assert.match(page, /href="\/search\?q=a\+b%26c&amp;language=yo&amp;page=2" rel="prev"/);
    assert.match(page, /href="\/search\?q=a\+b%26c&amp;language=yo&amp;page=4" rel="next"/);
    assert.match(page, /<span aria-current="page">3<\/span>/);
    assert.match(page, /page=50"/, 'last page linked');
  });

  it('search page - the Search in choice is a labelled menu, kept selected and in every page link', () => {
    const items = Array.from({ length: 20 }, (_, i) => summary({ id: i, slug: `w${i}`, matchType: 'meaning' }));
    const page = searchPage({ assets: ASSETS, languages: LANGUAGES, q: 'water', scope: 'meaning', page: 2, perPage: 20, maxPage: 10_000, result: { total: 100, truncated: false, items } }).value;
    assert.match(page, /<label for="search-scope" class="visually-hidden">Search in<\/label>\n<select id="search-scope" name="scope">/);
    assert.match(page, /<option value="">Words and meanings<\/option><option value="headword">Words only<\/option><option value="meaning" selected>English meanings only<\/option>/);
    assert.match(page, /href="\/search\?q=water&amp;scope=meaning" rel="prev"/);
    assert.match(page, /href="\/search\?q=water&amp;scope=meaning&amp;page=3" rel="next"/);
    assert.match(page, /matched an English meaning/);
    const plain = searchPage({ assets: ASSETS, languages: LANGUAGES, q: 'water', page: 1, perPage: 20, maxPage: 10_000, result: { total: 100, truncated: false, items } }).value;
    assert.match(plain, /<option value="" selected>Words and meanings<\/option>/);
    assert.ok(!plain.includes('scope='), 'the default adds nothing to the links');
  });

  it('search page - nothing found in one scope says which, and suggests both', () => {
    const page = searchPage({ assets: ASSETS, languages: LANGUAGES, q: 'zzz', scope: 'headword', page: 1, perPage: 20, maxPage: 10_000, result: { total: 0, truncated: false, items: [] } }).value;
    assert.match(page, /No words written so found\.\nTry fewer letters, another spelling, or words and meanings both\./);
  });

  it('search page - a query that found little offers its suggestions as links that search each in its language', () => {
    const suggestions = [
      { text: 'ọmọ', query: 'ọmọ', language: 'yo', distance: 1 },
      { text: 'omi', query: 'omi', language: 'yo', distance: 1 },
      { text: 'omo', query: 'omo', language: 'ig', distance: 1 },
    ];
    const page = searchPage({ assets: ASSETS, languages: LANGUAGES, q: 'omoo', page: 1, perPage: 20, maxPage: 10_000, result: { total: 0, truncated: false, items: [], suggestions } }).value;
    assert.match(page, /<nav class="suggestions" aria-label="Similar spellings"><p>Did you mean <a href="\/search\?q=%E1%BB%8Dm%E1%BB%8D&amp;language=yo" lang="yo">ọmọ<\/a> \(Yoruba\), <a [^>]*>omi<\/a> \(Yoruba\) or <a href="\/search\?q=omo&amp;language=ig" lang="ig">omo<\/a> \(Igbo\)\?<\/p><\/nav>/);
    const none = searchPage({ assets: ASSETS, languages: LANGUAGES, q: 'omo', page: 1, perPage: 20, maxPage: 10_000, result: { total: 0, truncated: false, items: [], suggestions: [] } }).value;
    assert.doesNotMatch(none, /Did you mean/);
  });

  it('search page - escapes the query everywhere it is echoed', () => {
    const page = searchPage({ assets: ASSETS, languages: LANGUAGES, q: HOSTILE, page: 1, perPage: 20, maxPage: 10_000, result: { total: 0, truncated: false, items: [] } }).value;
    assertNoInjectedMarkup(page);
    assert.match(page, /No words found/);
  });
});

describe('not found page', () => {
  it('not found page - names the missing slug and offers a search prefilled from it', () => {
    const page = notFoundPage({ assets: ASSETS, languages: LANGUAGES, slug: 'omo-dun-3' }).value;
    assert.match(page, /No entry at this address/);
    assert.match(page, /<form class="search" role="search" action="\/search" method="get">/);
    assert.match(page, /name="q" type="search" value="omo dun"/);
    assert.ok(headingsInOrder(page));
    assertNoInjectedMarkup(notFoundPage({ assets: ASSETS, languages: LANGUAGES, slug: HOSTILE }).value);
  });

  it('searchTextFromSlug - drops the disambiguator and hyphens', () => {
    assert.equal(searchTextFromSlug('omi-2'), 'omi');
    assert.equal(searchTextFromSlug('-tu-afa'), 'tu afa');
  });
});

describe('developers page', () => {
  const CONTACT = { text: 'ops@example.org', href: 'mailto:ops@example.org' };

  it('developers page - lists the plans with their daily limits and a labelled sign-up form', () => {
    const page = developersPage({ assets: ASSETS, contact: CONTACT }).value;
    for (const text of ['1,000', '50,000', '500,000', 'Contact the operator']) assert.ok(page.includes(text), text);
    for (const field of ['name', 'email', 'organization', 'useCase', 'keyName']) {
      assert.match(page, new RegExp(`<label for="f-${field}">`), field);
      assert.match(page, new RegExp(`id="f-${field}" name="${field}"`), field);
    }
    assert.match(page, /<form class="signup" action="\/developers" method="post">/);
    assert.match(page, /<title>Developers · /);
    assert.ok(headingsInOrder(page));
  });

  it('developers page - the plans table scrolls in a named region that takes keyboard focus', () => {
    const page = developersPage({ assets: ASSETS, contact: CONTACT }).value;
    assert.match(page, /<h2 id="plans">Plans<\/h2>\n<div class="scroll" role="region" aria-labelledby="plans" tabindex="0"><table>/, page);
  });

  it('developers page - team and institution plans point at the operator contact, or say none is published', () => {
    const withContact = developersPage({ assets: ASSETS, contact: CONTACT }).value;
    assert.equal(withContact.match(/Contact the operator: <a href="mailto:ops@example\.org">ops@example\.org<\/a>\./g)?.length, 2, withContact);
    const without = developersPage({ assets: ASSETS, contact: undefined }).value;
    assert.ok(!without.includes('mailto:'), without);
    assert.equal(without.match(/Contact the operator: this service has not published a contact address yet\./g)?.length, 2, without);
  });

  it('developers page - tells teachers that one key serves a class, since sign-ups are limited per network address', () => {
    const page = developersPage({ assets: ASSETS, contact: CONTACT }).value;
    assert.match(page, /One key can serve a whole class/, page);
    assert.match(page, /limited to 5 keys per network address every 15 minutes/, page);
  });

  it('developers page - shows each error next to its field and keeps the values, escaped', () => {
    const page = developersPage({ assets: ASSETS, contact: CONTACT, values: { name: HOSTILE, email: 'bad' }, errors: { email: 'Enter an email like name@example.org' } }).value;
    assert.match(page, /aria-describedby="f-email-hint f-email-error" aria-invalid="true" value="bad">\n<p class="error-text" id="f-email-error"><span class="visually-hidden">Error: <\/span>Enter an email like name@example\.org<\/p>/);
    assertNoInjectedMarkup(page);
  });

  it('developers page - a failed sign-up titles the page "Error:" and opens with a focused summary linking to each field', () => {
    const errors = { name: 'Enter your name', email: 'Enter an email like name@example.org' };
    const page = developersPage({ assets: ASSETS, contact: CONTACT, values: {}, errors }).value;
    assert.match(page, /<title>Error: Developers · /, page);
    const summary = page.match(/<div class="alert error-summary"[^>]*>[\s\S]*?<\/div>/)?.[0] ?? '';
    assert.match(summary, /tabindex="-1" autofocus data-focus aria-labelledby="error-summary-title"/, summary);
    assert.match(summary, /<li><a href="#f-name">Enter your name<\/a><\/li><li><a href="#f-email">Enter an email like name@example\.org<\/a><\/li>/, summary);
    assert.ok(page.indexOf('error-summary') < page.indexOf('<form class="signup"'), 'the summary comes before the form');
    assert.ok(headingsInOrder(page));
    const problem = developersPage({ assets: ASSETS, contact: CONTACT, problem: { title: 'Sign-up is unavailable right now', detail: 'Try later.' } }).value;
    assert.match(problem, /<title>Error: Developers · /);
    assert.match(problem, /<div class="alert" tabindex="-1" autofocus data-focus><h3>Sign-up is unavailable right now<\/h3>/);
  });

  it('key page - shows the key once with the warning and a copy button that only script reveals', () => {
    const key = `svc_live_${'a'.repeat(40)}`;
    const page = keyCreatedPage(ASSETS, { developer: { id: 'd1', name: 'Ada', email: 'ada@example.org', plan: 'free' }, apiKey: key, keyPrefix: key.slice(0, 17) }, 'http://localhost:1').value;
    assert.match(page, new RegExp(`<code class="key" id="api-key">${key}</code>`));
    assert.match(page, /Store this API key now: it is shown only once/);
    assert.match(page, /<button type="button" class="secondary" data-copy="api-key" hidden>/);
    assert.match(page, /<meta name="robots" content="noindex">/);
  });
});

describe('other pages', () => {
  it('home page - word of the day per active language, marked with its language', () => {
    const page = homePage({
      assets: ASSETS,
      languages: LANGUAGES,
      date: '2025-11-22',
      wordsOfTheDay: [
        { language: LANGUAGES[0], entry: undefined },
        { language: LANGUAGES[1], entry: yorubaEntry() },
      ],
    }).value;
    assert.match(page, /<a href="\/words\/omo" lang="yo">ọmọ<\/a>/);
    assert.match(page, /22 November 2025/);
    assert.match(page, /No word of the day today/);
    assert.match(page, /<a href="\/languages\/hausa"><span lang="ha">Harshen Hausa<\/span> \(Hausa\)<\/a>: corpus being prepared/);
    assert.match(page, /<a class="skip" href="#main">/);
    assert.ok(headingsInOrder(page));
  });

  it('docs page - renders every operation, its parameters, responses and a try form from the OpenAPI description', () => {
    const page = docsPage({ assets: ASSETS, document: buildOpenApiDocument(ROUTES), examples: { q: 'omi', id: 'omi', language: 'yo' } }).value;
    assert.ok(!/src="(https?:)?\/\//.test(page), 'no third-party script');
    assert.match(page, /<script src="\/assets\/docs\.js\?v=test" defer><\/script>/);
    assert.match(page, /<code class="op-path">\/api\/v1\/words\/\{id\}<\/code>/);
    assert.match(page, /<code>limit<\/code> <span class="type">query, integer, optional<\/span> <span class="muted">\(minimum 1, maximum 100, default 20\)<\/span>: Results per page\./, page);
    assert.match(page, /<code>partOfSpeech<\/code> <span class="type">query, one of <code>noun<\/code>/);
    assert.match(page, /curl -H &quot;X-API-Key: \$API_KEY&quot; &quot;\$BASE\/api\/v1\/words\?q=omi&amp;language=yo&quot;/);
    assert.match(page, /<dt><code>429<\/code><\/dt><dd>quota_exceeded: /);
    assert.match(page, /<h3 id="schema-Entry">Entry<\/h3>/);
    assert.match(page, /<a href="#schema-WordsPage">WordsPage<\/a>/);
    assert.match(page, /<form class="try" data-path="\/api\/v1\/words\/\{id\}"/);
    assert.match(page, /<input id="try-getWord-id" name="id" data-in="path" required type="text" autocapitalize="none" spellcheck="false" maxlength="200" value="omi">/, page);
    assert.match(page, /<label for="try-searchWords-key">Your API key<\/label>/);
    assert.match(page, /<fieldset disabled>/, 'the form waits for the script that sends it');
    assert.ok(headingsInOrder(page), 'headings in order');
  });

  it('about page - every corpus with licence and attribution, links only when http(s)', () => {
    const page = aboutPage({
      assets: ASSETS,
      contact: undefined,
      languages: LANGUAGES,
      stats: undefined,
      sources: [
        { id: 'igbo-api', name: 'Igbo API', language: 'ig', role: 'lexicon', url: 'https://github.com/nkowaokwu/igbo_api', attribution: 'Igbo API (nkowaokwu/igbo_api), © 2023 Nkọwa okwu', licence: { spdx: 'Apache-2.0', name: 'Apache License 2.0', url: 'https://www.apache.org/licenses/LICENSE-2.0' }, records: 8000 },
        { id: 'evil', name: HOSTILE, language: 'yo', role: 'frequency', url: 'javascript:alert(1)', attribution: HOSTILE, licence: { spdx: 'X', name: HOSTILE, url: 'data:x' }, records: 0 },
      ],
    }).value;
    assert.match(page, /<a href="https:\/\/github\.com\/nkowaokwu\/igbo_api" rel="external">Igbo API<\/a>/);
    assert.match(page, /dictionary entries for Igbo \(8,000 records in this edition\)/);
    assert.match(page, /Unicode normal form C/);
    assertNoInjectedMarkup(page);
    assert.ok(!page.includes('javascript:') && !page.includes('data:x'));
    assert.ok(headingsInOrder(page));
    assert.match(page, /contact the operator of\nthis service: this service has not published a contact address yet\./, page);
  });

  it('about page - links the operator contact when one is configured', () => {
    const page = aboutPage({ assets: ASSETS, contact: { text: 'https://example.org/contact', href: 'https://example.org/contact' }, languages: LANGUAGES, stats: undefined, sources: [] }).value;
    assert.match(page, /<h2>Contact<\/h2>[\s\S]*<a href="https:\/\/example\.org\/contact">https:\/\/example\.org\/contact<\/a>\./, page);
  });
});
