// End to end in headless Chromium against the real stack (nats-server, metering, API workers): search without
// tone marks → entry with its tone-marked headword and licence; sign up → key → API call; failed sign-ups;
// phones at 375 px; no JavaScript; Ge'ez and Latin drawn from the site's own font faces. Screenshots of every page (desktop and phone) go to test-artifacts/web/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';

import { CHROMIUM_ARGS, chromiumPath } from '../../scripts/web/chromium.ts';
import { openSnapshot } from '../../snapshot/reader/reader.ts';
import { testSnapshotPath } from '../support/snapshot.ts';
import { ROOT, startStack } from '../support/stack.ts';
import type { Stack } from '../support/stack.ts';
import { assertAccessible } from './axe.ts';

const ARTIFACTS = path.join(ROOT, 'test-artifacts', 'web');
const DESKTOP = { width: 1280, height: 900 };
/** The narrowest common phone. */
const PHONE = { width: 375, height: 812 };
const OPERATOR_CONTACT = 'ops@example.org';

/** A stuck browser step fails its test instead of holding the whole file (the machine may be slow). */
const TEST_TIMEOUT = { timeout: 240_000 };

let stack: Stack;
let browser: Browser;
let desktop: BrowserContext;
let phone: BrowserContext;
/** Console errors and CSP refusals seen on any page: the site must load without either. */
const consoleProblems: string[] = [];

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const executablePath = chromiumPath(process.env.CHROMIUM_PATH);
  stack = await startStack({ env: { OPERATOR_CONTACT } });
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  desktop = await browser.newContext({ viewport: DESKTOP, baseURL: stack.baseUrl });
  phone = await browser.newContext({ viewport: PHONE, baseURL: stack.baseUrl, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
});

after(async () => {
  await browser?.close();
  await stack?.stop();
});

async function open(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  page.on('console', (msg) => {
    if (msg.type() === 'error') consoleProblems.push(`${url}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => consoleProblems.push(`${url}: ${err.message}`));
  await page.goto(url);
  return page;
}

/** Desktop pages in full; phone pages as the first screen a visitor sees (what "readable" is judged on). */
async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage });
}

/** The fonts Chromium really drew a node's text with (family name, and whether it came from an @font-face). */
async function drawnFonts(page: Page, selector: string): Promise<{ familyName: string; isCustomFont: boolean }[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument');
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    return (await cdp.send('CSS.getPlatformFontsForNode', { nodeId })).fonts;
  } finally {
    await cdp.detach();
  }
}

describe('website in a browser', () => {
  it('website in a browser - a word typed without tone marks leads to its tone-marked entry and licence', TEST_TIMEOUT, async () => {
    const page = await open(desktop, '/');
    await shot(page, 'home');
    await page.getByLabel('Word or English meaning').fill('omo');
    await page.getByLabel('Language').selectOption('yo');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/search\?q=omo&language=yo/);
    await shot(page, 'search');
    const result = page.locator('ol.results a.word', { hasText: /^ọmọ$/ }).first();
    assert.equal(await result.getAttribute('lang'), 'yo');
    await result.click();
    await page.waitForURL(/\/words\//);
    const headword = page.locator('h1.headword');
    assert.equal(await headword.textContent(), 'ọmọ');
    assert.equal(await headword.getAttribute('lang'), 'yo');
    const provenance = (await page.locator('section.provenance').textContent()) ?? '';
    assert.match(provenance, /Creative Commons Attribution-ShareAlike 4\.0/);
    assert.match(provenance, /Wiktionary contributors/);
    await shot(page, 'entry');
    // The same address, shared, opens the same entry.
    const again = await open(desktop, page.url());
    assert.equal(await again.locator('h1.headword').textContent(), 'ọmọ');
    await again.close();
    await page.close();
  });

  it('website in a browser - Igbo typed in standard spelling finds the Onitsha form, and says which spelling matched', TEST_TIMEOUT, async () => {
    const page = await open(desktop, '/search?q=mmiri&language=ig');
    const words = await page.locator('ol.results a.word').allTextContents();
    assert.ok(words.includes('mmilī'), JSON.stringify(words));
    const water = page.locator('ol.results li', { has: page.locator('a.word', { hasText: /^mmilī$/ }) });
    const meta = (await water.locator('p.meta').textContent()) ?? '';
    assert.match(meta, /matched the spelling mmiri/, meta);
    assert.match(meta, /Onitsha spelling/, meta);
    assert.ok(!meta.includes('Igbo'), `the filtered language is not repeated: ${meta}`);
    await water.locator('a.word').click();
    await page.waitForURL(/\/words\//);
    assert.match((await page.locator('p.spelling').textContent()) ?? '', /Onitsha spelling of Kay Williamson's dictionary/);
    assert.match((await page.locator('p.dialect').textContent()) ?? '', /^Onitsha dialect\. This entry is from Kay Williamson's Dictionary of Ònìchà Igbo, a lexicon of the Onitsha dialect/);
    await page.close();
  });

  it('website in a browser - Search in keeps a search to English meanings, and paging keeps the choice', TEST_TIMEOUT, async () => {
    const page = await open(desktop, '/');
    await page.getByLabel('Word or English meaning').fill('go');
    await page.getByLabel('Language').selectOption('yo');
    await page.getByLabel('Search in').selectOption({ label: 'English meanings only' });
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/search\?q=go&language=yo&scope=meaning$/);
    const types = await page.locator('ol.results .tag.match').evaluateAll((tags) => tags.map((t) => t.getAttribute('data-match')));
    assert.ok(types.length > 0 && types.every((t) => t === 'meaning' || t === 'gloss'), JSON.stringify(types));
    assert.equal(await page.locator('ol.results a.word').first().textContent(), 'lọ');
    assert.equal(await page.getByLabel('Search in').inputValue(), 'meaning', 'the results page keeps the choice');
    await shot(page, 'search-meanings');
    await assertAccessible(page, 'search in English meanings');
    // A broad search from the results page's own form, then the next page: the choice stays.
    await page.getByLabel('Word or English meaning').fill('a');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/search\?q=a&language=yo&scope=meaning$/);
    await page.locator('nav.pages a[rel=next]').click();
    await page.waitForURL(/\/search\?q=a&language=yo&scope=meaning&page=2$/);
    assert.equal(await page.getByLabel('Search in').inputValue(), 'meaning');
    await page.getByLabel('Search in').selectOption({ label: 'Words only' });
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/search\?q=a&language=yo&scope=headword$/);
    const wordTypes = await page.locator('ol.results .tag.match').evaluateAll((tags) => tags.map((t) => t.getAttribute('data-match')));
    assert.ok(wordTypes.length > 0 && wordTypes.every((t) => t !== 'meaning' && t !== 'gloss'), JSON.stringify(wordTypes));
    await page.close();
  });

  it('website in a browser - a slip of the keyboard offers "Did you mean" links that a keyboard reaches and follows', TEST_TIMEOUT, async () => {
    const page = await open(desktop, '/search?q=nyumbna&language=sw');
    const suggestions = page.getByRole('navigation', { name: 'Similar spellings' });
    assert.match((await suggestions.textContent()) ?? '', /^Did you mean nyumba\b/);
    const link = suggestions.getByRole('link', { name: 'nyumba', exact: true });
    assert.equal(await link.getAttribute('lang'), 'sw');
    await shot(page, 'search-did-you-mean');
    await assertAccessible(page, 'search with suggestions');
    // Focus the search box, then Tab on until the suggestion has focus: reachable from the keyboard alone.
    await page.getByLabel('Word or English meaning').focus();
    for (let i = 0; i < 20 && !(await link.evaluate((a) => a === document.activeElement)); i++) await page.keyboard.press('Tab');
    assert.equal(await link.evaluate((a) => a === document.activeElement), true, 'the suggestion takes focus by Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/search\?q=nyumba&language=sw/);
    assert.equal(await page.locator('ol.results a.word').first().textContent(), 'nyumba');
    await page.close();
  });

  it('website in a browser - sign up, read the key once, call the API with it', TEST_TIMEOUT, async () => {
    const page = await open(desktop, '/developers');
    await shot(page, 'developers');
    await page.getByLabel('Your name').fill('Chiamaka Test');
    await page.getByLabel('Email address').fill(`browser-${process.pid}@example.org`);
    await page.getByLabel('Organization (optional)').fill('Ụlọ akwụkwọ');
    await page.getByLabel('What will you build? (optional)').fill('A flashcard app with tone marks');
    await page.getByLabel('Key name (optional)').fill('flashcards');
    await page.getByRole('button', { name: 'Create my key' }).click();
    await page.waitForSelector('#api-key');
    const key = ((await page.locator('#api-key').textContent()) ?? '').trim();
    assert.match(key, /^svc_live_[0-9a-f]{40}$/);
    assert.match((await page.locator('[role=alert]').textContent()) ?? '', /Store this API key now/);
    assert.ok(await page.getByRole('button', { name: 'Copy key' }).isVisible(), 'script reveals the copy button');
    await shot(page, 'key');
    await assertAccessible(page, 'key page');
    const res = await fetch(`${stack.baseUrl}/api/v1/words?q=omo`, { headers: { 'X-API-Key': key } });
    const body = await res.text();
    assert.equal(res.status, 200, body);
    assert.ok((JSON.parse(body) as { data: unknown[] }).data.length > 0, body);
    await page.close();
  });

  it('website in a browser - a failed sign-up says Error: in the title, focuses its summary, links to the field', TEST_TIMEOUT, async () => {
    const page = await open(desktop, '/developers');
    // A fixed client address (the stack trusts X-Forwarded-For from 127.0.0.1) so the throttle is ours alone.
    await page.setExtraHTTPHeaders({ 'x-forwarded-for': '10.99.0.1' });
    // Past the browser's own checks, to show the server's message beside the field.
    await page.locator('form.signup').evaluate((form) => form.setAttribute('novalidate', ''));
    await page.getByLabel('Your name').fill('Ada');
    await page.getByLabel('Email address').fill('not-an-email');
    await page.getByRole('button', { name: 'Create my key' }).click();
    await page.waitForSelector('#f-email-error');
    assert.match(await page.title(), /^Error: Developers/);
    await page.waitForLoadState('load');
    const focused = await page.evaluate(() => document.activeElement?.className);
    assert.equal(focused, 'alert error-summary', 'focus moved to the error summary');
    assert.equal(await page.locator('#f-email').getAttribute('aria-invalid'), 'true');
    assert.match((await page.locator('#f-email-error').textContent()) ?? '', /Enter an email like name@example\.org/);
    await shot(page, 'developers-error');
    await page.locator('.error-summary a', { hasText: 'Enter an email like name@example.org' }).click();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'f-email', 'the summary link lands in the field');
    await assertAccessible(page, 'developers with errors');
    let status = 0;
    for (let i = 0; i < 6 && status !== 429; i++) {
      const response = await page.goto('/developers');
      assert.equal(response?.status(), 200);
      await page.getByLabel('Your name').fill('Ada');
      await page.getByLabel('Email address').fill('ada-throttle@example.org');
      const [posted] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Create my key' }).click()]);
      status = posted?.status() ?? 0;
    }
    assert.equal(status, 429, 'the sixth key request in 15 minutes is refused');
    assert.match((await page.locator('.alert').first().textContent()) ?? '', /rate_limited/);
    assert.match(await page.title(), /^Error: Developers/);
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'DIV', 'focus on the problem');
    await shot(page, 'developers-rate-limited');
    await page.close();
  });

  it('website in a browser - about, 404 and keyboard: skip link first, focus visible', TEST_TIMEOUT, async () => {
    const about = await open(desktop, '/about');
    assert.match((await about.locator('main').textContent()) ?? '', /Unicode License V3/);
    assert.match((await about.locator('main').textContent()) ?? '', new RegExp(OPERATOR_CONTACT.replace('.', '\\.')));
    await shot(about, 'about');
    await assertAccessible(about, 'about on a desktop');
    await about.keyboard.press('Tab');
    assert.equal(await about.evaluate(() => document.activeElement?.className), 'skip');
    assert.ok(await about.locator('a.skip').isVisible(), 'the skip link shows when focused');
    await about.screenshot({ path: path.join(ARTIFACTS, 'focus-skip-link.png') });
    // Into the content, as a keyboard user does: the skip link moves focus to main.
    await about.keyboard.press('Enter');
    await about.keyboard.press('Tab');
    assert.equal(await about.evaluate(() => document.activeElement?.closest('main') !== null), true, 'focus moved into main');
    const outline = await about.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
    assert.equal(outline, 'solid', 'focus is visible');
    await about.screenshot({ path: path.join(ARTIFACTS, 'focus-in-main.png') });
    await about.close();
    const missing = await desktop.newPage();
    const response = await missing.goto('/words/no-such-word-anywhere');
    assert.equal(response?.status(), 404);
    assert.ok(await missing.getByRole('search').isVisible());
    await shot(missing, 'not-found');
    await missing.close();
  });

  it('website in a browser - readable on a 375 px phone: no sideways scrolling, no accessibility finding on any page', TEST_TIMEOUT, async () => {
    const slug = (await (await fetch(`${stack.baseUrl}/search?q=omo&language=yo`)).text()).match(/href="\/words\/([^"]+)" lang="yo">ọmọ</)?.[1];
    assert.ok(slug);
    const pages = [
      ['home', '/'],
      ['search', '/search'],
      ['search-results', '/search?q=omo&language=yo'],
      ['search-igbo', '/search?q=mmiri'],
      ['search-meanings', '/search?q=water&language=sw&scope=meaning'],
      ['entry', `/words/${slug}`],
      ['developers', '/developers'],
      ['about', '/about'],
      ['downloads', '/downloads'],
      ['docs', '/docs'],
      ['not-found', '/no-such-page'],
    ];
    for (const [name, url] of pages) {
      const page = await open(phone, url);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${name} scrolls sideways by ${overflow}px on a phone`);
      await shot(page, `phone-${name}`, false);
      await assertAccessible(page, `${name} on a phone`);
      await page.close();
    }
  });

  it('website in a browser - on a phone, the first result shows on the first screen of a results page', TEST_TIMEOUT, async () => {
    const page = await open(phone, '/search?q=ego&language=ig');
    const first = await page.locator('ol.results li').first().boundingBox();
    assert.ok(first && first.y + first.height <= PHONE.height, `first result at ${JSON.stringify(first)}`);
    assert.equal(await page.getByLabel('Word or English meaning').inputValue(), 'ego', 'the search can be changed in place');
    const labels = await page.locator('ol.results .tag.match').allTextContents();
    assert.ok(labels.includes('contains your search') && labels.includes('starts with your search'), JSON.stringify(labels));
    await page.close();
  });

  it('website in a browser - on a phone, the plans table scrolls sideways from the keyboard', TEST_TIMEOUT, async () => {
    const page = await open(phone, '/developers');
    const region = page.getByRole('region', { name: 'Plans' });
    await region.scrollIntoViewIfNeeded();
    const widths = await region.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    assert.ok(widths.scroll > widths.client, `the table is wider than the screen: ${JSON.stringify(widths)}`);
    // Reached with Tab like any control, then moved with the arrow keys.
    await page.locator('#plans').evaluate((heading) => {
      heading.setAttribute('tabindex', '-1');
      (heading as HTMLElement).focus();
    });
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('role')), 'region', 'Tab reaches the table');
    for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
    // Chromium scrolls smoothly: the offset moves over the next frames, not by the time press() returns.
    const scrolled = await page
      .waitForFunction(() => (document.activeElement?.scrollLeft ?? 0) > 0, undefined, { timeout: 5_000 })
      .then(() => true, () => false);
    assert.ok(scrolled, 'arrow keys scroll it');
    await shot(page, 'phone-developers-plans', false);
    const text = (await page.locator('main').textContent()) ?? '';
    assert.match(text, new RegExp(`Contact the operator: ${OPERATOR_CONTACT.replace('.', '\\.')}`), 'the operator contact is shown');
    assert.match(text, /One key can serve a whole class/);
    await page.close();
  });

  it('website in a browser - works without JavaScript: search, entry, sign-up', TEST_TIMEOUT, async () => {
    const context = await browser.newContext({ viewport: DESKTOP, baseURL: stack.baseUrl, javaScriptEnabled: false, extraHTTPHeaders: { 'x-forwarded-for': '10.99.0.2' } });
    const page = await context.newPage();
    await page.goto('/search?q=omo&language=yo');
    await page.locator('ol.results a.word', { hasText: /^ọmọ$/ }).first().click();
    assert.equal(await page.locator('h1.headword').textContent(), 'ọmọ');
    await page.goto('/developers');
    await page.getByLabel('Your name').fill('No Script');
    await page.getByLabel('Email address').fill(`noscript-${process.pid}@example.org`);
    await page.getByRole('button', { name: 'Create my key' }).click();
    await page.waitForSelector('#api-key');
    assert.match(((await page.locator('#api-key').textContent()) ?? '').trim(), /^svc_live_[0-9a-f]{40}$/);
    assert.ok(await page.locator('button[data-copy]').isHidden(), 'no copy button without script');
    await shot(page, 'key-no-js');
    await context.close();
  });

  it('website in a browser - /docs without JavaScript lists every operation and says the try forms need it', TEST_TIMEOUT, async () => {
    const context = await browser.newContext({ viewport: PHONE, baseURL: stack.baseUrl, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto('/docs');
      const paths = await page.locator('[data-operation] .op-path').allTextContents();
      assert.deepEqual(paths, ['/api/v1/words', '/api/v1/words/{id}', '/api/v1/word-of-the-day', '/api/v1/languages', '/api/v1/stats', '/api/v1/developers']);
      await page.locator('#op-searchWords details.try summary').click();
      assert.ok(await page.locator('#op-searchWords [data-needs-script]').isVisible(), 'the form says it needs JavaScript');
      assert.equal(await page.locator('#op-searchWords fieldset').evaluate((f) => (f as HTMLFieldSetElement).disabled), true);
    } finally {
      await context.close();
    }
  });

  it("website in a browser - an Amharic headword is drawn in the Ethiopic face, a Yoruba one in Noto Sans", TEST_TIMEOUT, async () => {
    const snapshot = openSnapshot(testSnapshotPath());
    const slug = snapshot.search({ language: 'am', page: 1, limit: 1 }).items[0]?.slug;
    snapshot.close();
    assert.ok(slug, 'an Amharic entry in the test snapshot');
    const page = await open(desktop, `/words/${encodeURIComponent(slug)}`);
    await page.evaluate(() => document.fonts.ready);
    assert.equal(await page.locator('h1.headword').getAttribute('lang'), 'am');
    const ethiopic = await drawnFonts(page, 'h1.headword');
    assert.deepEqual(ethiopic.map((f) => [f.familyName, f.isCustomFont]), [['Noto Sans Ethiopic', true]], JSON.stringify(ethiopic));
    const yoruba = await open(desktop, '/search?q=omo&language=yo');
    await yoruba.evaluate(() => document.fonts.ready);
    const latin = await drawnFonts(yoruba, 'ol.results a.word');
    assert.deepEqual(latin.map((f) => [f.familyName, f.isCustomFont]), [['Noto Sans', true]], JSON.stringify(latin));
    await yoruba.close();
    await page.close();
  });

  it('website in a browser - no console errors or CSP refusals on any page', TEST_TIMEOUT, () => {
    assert.deepEqual(consoleProblems.filter((p) => !/status of 4(04|29|00)/.test(p)), []);
  });
});
