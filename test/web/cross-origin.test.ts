// Key registration from a page of another site, in headless Chromium against the real stack (nats-server,
// metering, an API worker): the page's fetch cannot register or read a key, its auto-submitted forms create no
// key; the site's own page and server-side clients still register, and the keyed reads keep their CORS.
// The other site is http://evil.test:<port>, mapped to 127.0.0.1 by Chromium's resolver: another site, not only
// another port of the same host (which the browser would call same-site).
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';

import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';

import { CHROMIUM_ARGS, chromiumPath } from '../../scripts/web/chromium.ts';
import { freePort } from '../support/free-port.ts';
import { fakeClientIp, startStack } from '../support/stack.ts';
import type { Stack } from '../support/stack.ts';

const EVIL_HOST = 'evil.test';

let stack: Stack;
let browser: Browser;
let context: BrowserContext;
let evil: http.Server;
let evilOrigin: string;
/** Pages the other site serves, by path. */
const evilPages = new Map<string, string>();

before(async () => {
  stack = await startStack({ workers: 1 });
  const port = await freePort();
  evil = http.createServer((req, res) => {
    const page = evilPages.get(req.url ?? '');
    res.writeHead(page === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page ?? 'not here');
  });
  await new Promise<void>((resolve) => evil.listen(port, '127.0.0.1', resolve));
  evilOrigin = `http://${EVIL_HOST}:${port}`;
  browser = await chromium.launch({
    executablePath: chromiumPath(process.env.CHROMIUM_PATH),
    args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${EVIL_HOST} 127.0.0.1`],
  });
  context = await browser.newContext();
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => evil?.close(resolve));
  await stack?.stop();
});

const email = (label: string): string => `${label}-${process.pid}-${Date.now()}@example.org`;

/** Whether a developer with this email exists (ops developers show exits 0), with the CLI's output. */
async function registered(address: string): Promise<{ exists: boolean; output: string }> {
  const out = await stack.ops('developers', 'show', address);
  return { exists: out.code === 0, output: `${out.code} ${out.stdout}${out.stderr}` };
}

async function evilPage(path: string, body: string): Promise<Page> {
  evilPages.set(path, `<!doctype html><html><body>${body}</body></html>`);
  const page = await context.newPage();
  await page.goto(`${evilOrigin}${path}`);
  return page;
}

describe('registration from other origins', () => {
  it('registration from other origins - a page elsewhere cannot fetch a key through its visitor\'s browser', async () => {
    const victim = email('fetch');
    const page = await evilPage('/fetch.html', '<p>cat pictures</p>');
    const outcome = await page.evaluate(
      async ([url, address]) => {
        try {
          const res = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ name: 'Harvested', email: address }),
          });
          return `read ${res.status} ${await res.text()}`;
        } catch (error) {
          return `refused ${(error as Error).message}`;
        }
      },
      [`${stack.baseUrl}/api/v1/developers`, victim] as const,
    );
    assert.match(outcome, /^refused /, outcome);
    const after = await registered(victim);
    assert.equal(after.exists, false, after.output);
    await page.close();
  });

  it('registration from other origins - requests that skip the preflight register nothing', async () => {
    const plain = email('plain');
    const form = email('textform');
    const page = await evilPage(
      '/simple.html',
      // A form with enctype text/plain writes `name=value`: the classic way to send a JSON-looking body
      // without a preflight.
      `<form id="f" method="post" enctype="text/plain" action="${stack.baseUrl}/api/v1/developers" target="sink">` +
        `<input name='{"name":"Harvested","email":"${form}","pad":"' value='"}'></form>` +
        '<iframe name="sink"></iframe>',
    );
    const outcome = await page.evaluate(
      async ([url, address]) => {
        const res = await fetch(url, {
          method: 'POST',
          mode: 'no-cors',
          headers: { 'content-type': 'text/plain' },
          body: JSON.stringify({ name: 'Harvested', email: address }),
        });
        return res.type;
      },
      [`${stack.baseUrl}/api/v1/developers`, plain] as const,
    );
    assert.equal(outcome, 'opaque', 'a no-cors response is never readable');
    const sunk = page.waitForEvent('framenavigated', { predicate: (frame) => frame.name() === 'sink' });
    await page.evaluate(() => (document.getElementById('f') as HTMLFormElement).submit());
    await sunk;
    for (const address of [plain, form]) {
      const after = await registered(address);
      assert.equal(after.exists, false, `${address}: ${after.output}`);
    }
    await page.close();
  });

  it('registration from other origins - an auto-submitted sign-up form gets no key page', async () => {
    const victim = email('csrf');
    const page = await evilPage(
      '/form.html',
      `<form id="f" method="post" action="${stack.baseUrl}/developers">` +
        `<input name="name" value="Forged"><input name="email" value="${victim}"></form>`,
    );
    const [response] = await Promise.all([
      page.waitForNavigation(),
      page.evaluate(() => (document.getElementById('f') as HTMLFormElement).submit()),
    ]);
    const text = (await page.content()) ?? '';
    assert.equal(response?.status(), 403, text.slice(0, 2000));
    assert.doesNotMatch(text, /svc_live_[0-9a-f]{40}/, 'no key on the page');
    assert.match(text, /sent from another website/);
    const after = await registered(victim);
    assert.equal(after.exists, false, after.output);
    await page.close();
  });

  it('registration from other origins - the site\'s own page registers through the API and the form', async () => {
    const page = await context.newPage();
    await page.goto(`${stack.baseUrl}/developers`);
    // The throttle counts these by the forwarded address (the stack trusts 127.0.0.1): ours alone.
    await page.setExtraHTTPHeaders({ 'x-forwarded-for': fakeClientIp() });
    const viaFetch = email('own-fetch');
    const outcome = await page.evaluate(async (address) => {
      const res = await fetch('/api/v1/developers', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Own page', email: address }),
      });
      return `${res.status} ${await res.text()}`;
    }, viaFetch);
    assert.match(outcome, /^201 .*"apiKey":"svc_live_[0-9a-f]{40}"/, outcome);
    await page.getByLabel('Your name').fill('Own form');
    await page.getByLabel('Email address').fill(email('own-form'));
    const [posted] = await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Create my key' }).click()]);
    assert.equal(posted?.status(), 201, await page.content());
    assert.match((await page.locator('#api-key').textContent()) ?? '', /^\s*svc_live_[0-9a-f]{40}\s*$/);
    await page.close();
  });

  it('registration from other origins - a server-side client (no Origin) still registers', async () => {
    const res = await fetch(`${stack.baseUrl}/api/v1/developers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': fakeClientIp() },
      body: JSON.stringify({ name: 'Server', email: email('server') }),
    });
    const text = await res.text();
    assert.equal(res.status, 201, text);
    assert.equal(res.headers.get('access-control-allow-origin'), null, 'registration answers carry no CORS');
  });

  it('registration from other origins - a page elsewhere still reads the keyed API', async () => {
    const { apiKey } = await stack.register();
    const page = await evilPage('/read.html', '<p>a dictionary widget</p>');
    const outcome = await page.evaluate(
      async ([url, key]) => {
        const res = await fetch(url, { headers: { 'x-api-key': key } });
        return `${res.status} ${res.headers.get('x-ratelimit-limit')} ${(await res.text()).slice(0, 200)}`;
      },
      [`${stack.baseUrl}/api/v1/words?q=omo`, apiKey] as const,
    );
    assert.match(outcome, /^200 1000 \{"data":\[/, outcome);
    await page.close();
  });
});
