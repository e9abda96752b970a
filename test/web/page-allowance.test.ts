// The website metered as a public client: an address over its allowance of pages (5 a second, bursts of 60,
// services/api/guards/page-allowance.ts) gets the 429 page with Retry-After, one log line rather than one per
// refusal, and a count in the metrics; files and other addresses are untouched; and every website request is
// in /metrics under its own route name.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { PAGE_BURST } from '../../services/api/guards/page-allowance.ts';
import { parseExposition, total } from '../support/prometheus.ts';
import { startStack } from '../support/stack.ts';
import { httpClient } from '../reliability/support/http.ts';

import type { Stack } from '../support/stack.ts';

let stack: Stack;
before(async () => {
  stack = await startStack({ workers: 1 });
});
after(async () => {
  await stack?.stop();
});

async function metrics() {
  const port = /"msg":"metrics at GET \/metrics"[^\n]*"port":(\d+)/.exec(stack.meteringLogs())?.[1];
  assert.ok(port, 'the metering process logs its metrics port');
  return parseExposition(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text());
}

const from = (address: string): [string, string][] => [['X-Forwarded-For', address]];

describe('website allowance', () => {
  test('website allowance - pages past the burst get the 429 page with Retry-After; files and other addresses are served', async () => {
    const client = httpClient(stack.baseUrl, 1);
    try {
      const statuses: number[] = [];
      let refused;
      for (let i = 0; i < PAGE_BURST + 20; i++) {
        const res = await client.send({ method: 'GET', path: '/about', headers: from('198.51.100.77') });
        statuses.push(res.status);
        if (res.status === 429) refused ??= res;
      }
      const served = statuses.filter((s) => s === 200).length;
      // The burst, and what the allowance gave back while they were sent (5 a second).
      assert.ok(served >= PAGE_BURST && served < PAGE_BURST + 10, statuses.join(','));
      assert.equal(statuses.filter((s) => s === 429).length, statuses.length - served, statuses.join(','));
      assert.ok(refused);
      assert.equal(refused.headers['retry-after'], '1');
      assert.equal(refused.headers['cache-control'], 'no-store');
      assert.match(String(refused.headers['content-type']), /^text\/html/);
      assert.match(refused.text, /<h1>Too many pages at once<\/h1>/);
      assert.match(refused.text, /href="\/developers"/);

      const css = await client.send({ method: 'GET', path: '/assets/site.css', headers: from('198.51.100.77') });
      assert.equal(css.status, 200, 'files are not pages');
      const other = await client.send({ method: 'GET', path: '/about', headers: from('198.51.100.78') });
      assert.equal(other.status, 200, 'another address has its own allowance');
      const api = await client.send({ method: 'GET', path: '/api/v1/openapi.json', headers: from('198.51.100.77') });
      assert.equal(api.status, 200, 'the API is not the website');
    } finally {
      client.close();
    }
    const lines = stack.logs().split('\n').filter((l) => l.includes('website pages refused'));
    assert.equal(lines.length, 1, `one line for the whole burst of refusals:\n${lines.join('\n')}`);
    assert.match(lines[0], /"address":"198\.51\.100\.77"/);
    const samples = await metrics();
    assert.ok(total(samples, 'dict_guard_refusals_total', { guard: 'website' }) >= 10);
    assert.ok(total(samples, 'dict_http_requests_total', { route: 'GET /about', status: '429' }) >= 10);
  });

  test('website allowance - website requests are in /metrics under their own route names', async () => {
    const address = '198.51.100.90';
    const get = async (path: string) => {
      const res = await fetch(`${stack.baseUrl}${path}`, { headers: { 'x-forwarded-for': address } });
      await res.arrayBuffer();
      return res.status;
    };
    assert.equal(await get('/'), 200);
    assert.equal(await get('/search?q=water'), 200);
    assert.equal(await get('/no-such-page'), 404);
    assert.equal(await get('/assets/site.css'), 200);
    const samples = await metrics();
    for (const [route, status] of [['GET /', '200'], ['GET /search', '200'], ['website not found', '404'], ['GET /assets/site.css', '200']]) {
      assert.ok(total(samples, 'dict_http_requests_total', { route, status }) >= 1, `no ${route} ${status} in /metrics`);
      assert.ok(total(samples, 'dict_http_request_duration_seconds_count', { route }) >= 1, `no duration of ${route}`);
    }
  });
});
