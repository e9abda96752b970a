// /docs in headless Chromium against the real stack: on a throttled phone its operations show without layout
// shift (how fast is measured by scripts/web/page-perf.ts, not asserted here: a test's timing is the machine's),
// a person can try a call with their key on a 375 px screen, and axe finds nothing.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { chromium } from 'playwright-core';
import type { Browser, BrowserContext } from 'playwright-core';

import { CHROMIUM_ARGS, chromiumPath } from '../../scripts/web/chromium.ts';
import { OPERATIONS_SELECTOR, measurePage } from '../../scripts/web/page-perf.ts';
import { ROOT, startStack } from '../support/stack.ts';
import type { Stack } from '../support/stack.ts';
import { assertAccessible } from './axe.ts';

const ARTIFACTS = path.join(ROOT, 'test-artifacts', 'web');
const PHONE = { width: 375, height: 812 };
/** Layout shift bound on the throttled phone profile (scripts/web/page-perf.ts). */
const LAYOUT_SHIFT_BELOW = 0.1;
const LOADS = 3;

/** A stuck browser step fails its test instead of holding the whole file (the machine may be slow). */
const TEST_TIMEOUT = { timeout: 240_000 };

let stack: Stack;
let browser: Browser;
let phone: BrowserContext;

before(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  stack = await startStack();
  browser = await chromium.launch({ executablePath: chromiumPath(process.env.CHROMIUM_PATH), args: CHROMIUM_ARGS });
  phone = await browser.newContext({ viewport: PHONE, baseURL: stack.baseUrl, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
});

after(async () => {
  await browser?.close();
  await stack?.stop();
});

describe('/docs in a browser', () => {
  it('/docs in a browser - on the throttled phone profile the operations show, layout shift under 0.1', TEST_TIMEOUT, async () => {
    const runs = [];
    for (let i = 0; i < LOADS; i++) runs.push(await measurePage(browser, `${stack.baseUrl}/docs`, OPERATIONS_SELECTOR));
    assert.ok(runs.every((r) => r.contentMs >= 0), `operations shown: ${JSON.stringify(runs)}`);
    const shift = Math.max(...runs.map((r) => r.cls));
    assert.ok(shift < LAYOUT_SHIFT_BELOW, `layout shift ${shift}: ${JSON.stringify(runs)}`);
  });

  it('/docs in a browser - a person tries a search with their key on a 375 px phone and reads the answer', TEST_TIMEOUT, async () => {
    const { apiKey } = await stack.register();
    const page = await phone.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto('/docs');
    const section = page.locator('#op-searchWords');
    await section.locator('summary', { hasText: 'Try it' }).click();
    await section.getByLabel('Your API key').fill(apiKey);
    await section.getByLabel('q (query)').fill('omo');
    await section.getByRole('button', { name: 'Send request' }).click();
    const response = section.getByRole('region', { name: 'Search words: response' });
    await response.waitFor();
    const text = (await response.textContent()) ?? '';
    assert.match(text, /^HTTP 200/, text.slice(0, 500));
    assert.match(text, /x-ratelimit-remaining: \d+/, text.slice(0, 500));
    assert.match(text, /"exactForm": "ọmọ"/, text.slice(0, 2000));
    assert.match((await section.getByRole('status').textContent()) ?? '', /200/);
    // The answer uses the page's width, not a sliver of it, and never makes the page scroll sideways.
    const box = await response.boundingBox();
    assert.ok(box && box.width >= PHONE.width - 80, `response ${JSON.stringify(box)} on a ${PHONE.width} px screen`);
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)) <= 0, 'no sideways scroll');
    // The key typed once serves every form.
    assert.equal(await page.locator('#op-getWord').getByLabel('Your API key').inputValue(), apiKey);
    await page.screenshot({ path: path.join(ARTIFACTS, 'phone-docs-try-it.png') });
    await assertAccessible(page, '/docs with a response shown');
    assert.deepEqual(requests.filter((u) => !u.startsWith(stack.baseUrl)), [], 'no third-party request');
    await page.close();
  });

  it('/docs in a browser - a wrong key shows the error body the API gives', TEST_TIMEOUT, async () => {
    const page = await phone.newPage();
    await page.goto('/docs');
    const section = page.locator('#op-getStats');
    await section.locator('summary', { hasText: 'Try it' }).click();
    await section.getByLabel('Your API key').fill('svc_live_not-a-key');
    await section.getByRole('button', { name: 'Send request' }).click();
    const response = section.getByRole('region', { name: 'Totals: response' });
    await response.waitFor();
    const text = (await response.textContent()) ?? '';
    assert.match(text, /^HTTP 401/, text);
    assert.match(text, /"code": "invalid_api_key"/, text);
    await page.close();
  });
});
