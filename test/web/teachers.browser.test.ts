// What a teacher uses, in headless Chromium against the real stack: browsing a language by letter, an entry
// with its full link, its "report a mistake" link and its homograph number, an entry printed on one page
// without the site's navigation, labels said once, and /downloads and /about folded by language on a phone.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';

import { CHROMIUM_ARGS, chromiumPath } from '../../scripts/web/chromium.ts';
import { startStack } from '../support/stack.ts';
import type { Stack } from '../support/stack.ts';
import { assertAccessible } from './axe.ts';

const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 900 };
const OPERATOR_CONTACT = 'ops@example.org';
const TEST_TIMEOUT = { timeout: 240_000 };

let stack: Stack;
let browser: Browser;
let phone: BrowserContext;
let desktop: BrowserContext;

before(async () => {
  stack = await startStack({ env: { OPERATOR_CONTACT } });
  browser = await chromium.launch({ executablePath: chromiumPath(process.env.CHROMIUM_PATH), args: CHROMIUM_ARGS });
  phone = await browser.newContext({ viewport: PHONE, baseURL: stack.baseUrl, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  desktop = await browser.newContext({ viewport: DESKTOP, baseURL: stack.baseUrl });
});

after(async () => {
  await browser?.close();
  await stack?.stop();
});

async function open(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  const response = await page.goto(url);
  assert.equal(response?.status(), 200, url);
  return page;
}

/** The slug of the first result of a search page whose word is `word`. */
async function slugOf(query: string, word: string): Promise<string> {
  const page = await open(desktop, query);
  const slug = await page.locator('ol.results a.word', { hasText: new RegExp(`^${word}$`) }).first().getAttribute('href');
  await page.close();
  assert.ok(slug, `${query}: no result ${word}`);
  return slug;
}

describe('website for teachers', () => {
  it('website for teachers - a language is browsed by letter, each letter paged, and its A-Z opens with a word', TEST_TIMEOUT, async () => {
    const page = await open(phone, '/search?language=ig');
    const letters = page.getByRole('navigation', { name: 'Browse by letter' });
    assert.equal(await letters.locator('[aria-current="page"]').textContent(), 'All');
    const first = (await page.locator('ol.results a.word').first().textContent()) ?? '';
    assert.match(first, /^-?\p{L}/u, `the Igbo A-Z opens with ${first}`);
    await letters.getByRole('link', { name: /^G:/ }).click();
    await page.waitForURL(/letter=g/);
    assert.equal(await page.getByRole('navigation', { name: 'Browse by letter' }).locator('[aria-current="page"]').textContent(), 'G');
    const status = (await page.getByRole('status').first().textContent()) ?? '';
    assert.match(status, /Showing 1–20 of [\d,]+ words in Igbo under G\./, status);
    const words = await page.locator('ol.results a.word').allTextContents();
    assert.ok(words.every((w) => /^[^\p{L}]*g/iu.test(w.normalize('NFD'))), words.join(' '));
    await page.getByRole('link', { name: 'Next' }).click();
    await page.waitForURL(/letter=g.*page=2|page=2.*letter=g/);
    const next = await page.locator('ol.results a.word').allTextContents();
    assert.ok(next.length > 0 && next.every((w) => /^[^\p{L}]*g/iu.test(w.normalize('NFD'))), next.join(' '));
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)) <= 0, 'no sideways scrolling');
    await assertAccessible(page, 'a letter of the Igbo A-Z on a phone');
    const unknown = await phone.newPage();
    assert.equal((await unknown.goto('/search?language=ig&letter=%23'))?.status(), 400);
    await assertAccessible(unknown, 'an unknown letter');
  });

  it('website for teachers - an entry has its full link to copy and a report link that names it', TEST_TIMEOUT, async () => {
    const slug = await slugOf('/search?q=omo&language=yo', 'ọmọ');
    const page = await open(phone, slug);
    const link = page.locator('#entry-link');
    assert.equal(await link.textContent(), `${stack.baseUrl}${slug}`);
    assert.ok(await page.getByRole('button', { name: 'Copy link' }).isVisible());
    const report = page.getByRole('link', { name: 'Report a mistake in this entry' });
    const href = (await report.getAttribute('href')) ?? '';
    assert.ok(href.startsWith(`mailto:${OPERATOR_CONTACT}?subject=`), href);
    const subject = decodeURIComponent(new URL(href).searchParams.get('subject') ?? '');
    assert.match(subject, /^Mistake in ọmọ \(Yoruba, noun, entry \d+\)$/, subject);
    assert.ok(decodeURIComponent(href).includes(slug), href);
    await assertAccessible(page, 'an entry on a phone');
  });

  it('website for teachers - an entry prints on one page, without the navigation, the search or the buttons', TEST_TIMEOUT, async () => {
    const slug = await slugOf('/search?q=omo&language=yo', 'ọmọ');
    const page = await open(desktop, slug);
    await page.emulateMedia({ media: 'print' });
    for (const selector of ['header.site', 'footer.site', 'button', '.report']) {
      const shown = await page.locator(selector).evaluateAll((els) => els.filter((el) => getComputedStyle(el).display !== 'none').length);
      assert.equal(shown, 0, `${selector} is printed`);
    }
    assert.ok(await page.locator('h1.headword').isVisible());
    assert.ok(await page.locator('section.provenance').isVisible(), 'the source and licence are printed');
    const pdf = await page.pdf({ format: 'A4', margin: { top: '15mm', bottom: '15mm', left: '15mm', right: '15mm' } });
    const pages = pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)?.length ?? 0;
    assert.equal(pages, 1, `the entry prints on ${pages} A4 pages`);
  });

  it('website for teachers - homographs are numbered on results and entries, each naming the others', TEST_TIMEOUT, async () => {
    const results = await open(desktop, '/search?q=d%C3%A1&language=yo');
    const numbered = await results.locator('ol.results li').filter({ has: results.locator('a.word', { hasText: /^dá$/ }) }).locator('sup.homograph').allTextContents();
    assert.ok(numbered.length >= 2, `numbered: ${numbered.join(', ')}`);
    assert.equal(new Set(numbered).size, numbered.length, 'each number once');
    const href = await results.locator('ol.results a.word', { hasText: /^dá$/ }).first().getAttribute('href');
    assert.ok(href);
    const entry = await open(desktop, href);
    assert.match((await entry.locator('h1.headword').textContent()) ?? '', /^dá homograph \d+$/);
    assert.match((await entry.locator('p.meta').nth(1).textContent()) ?? '', /Homograph \d+ of \d+/);
    assert.ok((await entry.getByRole('navigation', { name: 'Other words spelled dá' }).getByRole('link').count()) >= 1);
    await assertAccessible(entry, 'a homograph');
  });

  it('website for teachers - a language named alike in English and in itself is named once', TEST_TIMEOUT, async () => {
    const page = await open(desktop, '/');
    const text = (await page.locator('main').textContent()) ?? '';
    for (const doubled of ['Hausa (Hausa)', 'Afrikaans (Afrikaans)']) assert.ok(!text.includes(doubled), doubled);
    const options = await page.getByLabel('Language').locator('option').allTextContents();
    assert.ok(!options.some((o) => /^(\S+) \(\1\)$/.test(o)), options.join(' | '));
  });

  it('website for teachers - /downloads and /about fold by language on a phone and open on a wide screen', TEST_TIMEOUT, async () => {
    for (const path of ['/downloads', '/about']) {
      const small = await open(phone, path);
      const folds = small.locator('details.fold');
      assert.ok((await folds.count()) >= 5, `${path}: ${await folds.count()} languages`);
      assert.equal(await small.locator('details.fold[open]').count(), 0, `${path} opens folded on a phone`);
      const height = await small.evaluate(() => document.documentElement.scrollHeight / window.innerHeight);
      assert.ok(height < 12, `${path} is ${height.toFixed(1)} phone screens`);
      await folds.first().locator('summary').click();
      assert.equal(await small.locator('details.fold[open]').count(), 1);
      await assertAccessible(small, `${path} on a phone`);
      const wide = await open(desktop, path);
      assert.equal(await wide.locator('details.fold[open]').count(), await wide.locator('details.fold').count(), `${path} opens on a wide screen`);
    }
  });
});
