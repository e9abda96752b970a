// The reference's examples answer: every call /docs shows (curl, JavaScript and Python alike) and every
// parameter example of the served OpenAPI description finds something (200) in the snapshot served, and each
// sample response is what the example call answers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { show, startApi } from './support.ts';

import type { Api } from './support.ts';

interface Parameter {
  name: string;
  in: string;
  example?: string;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
}

let api: Api;
let docs: string;
let paths: Record<string, Record<string, Operation>>;
before(async () => {
  api = await startApi({ workers: 1 });
  docs = await (await fetch(`${api.stack.baseUrl}/docs`)).text();
  paths = ((await (await fetch(`${api.stack.baseUrl}/api/v1/openapi.json`)).json()) as { paths: typeof paths }).paths;
});
after(async () => {
  await api?.stack.stop();
});

/** Every URL of a GET example on /docs (`$BASE/…` in curl, `${BASE}/…` in JavaScript, `{BASE}/…` in Python). */
function docsUrls(page: string): Map<string, Set<string>> {
  const byStyle = new Map<string, Set<string>>([['curl', new Set()], ['javascript', new Set()], ['python', new Set()]]);
  const decoded = page.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&#96;/g, '`').replace(/&amp;/g, '&');
  for (const [, path] of decoded.matchAll(/"\$BASE(\/api\/v1\/[^"]*)"/g)) byStyle.get('curl')?.add(path);
  for (const [, path] of decoded.matchAll(/`\$\{BASE\}(\/api\/v1\/[^`]*)`/g)) byStyle.get('javascript')?.add(path);
  for (const [, path] of decoded.matchAll(/f"\{BASE\}(\/api\/v1\/[^"]*)"/g)) byStyle.get('python')?.add(path);
  return byStyle;
}

describe('reference examples', () => {
  test('reference examples - every call /docs shows answers 200 with a key, in each language of the examples', async () => {
    const byStyle = docsUrls(docs);
    for (const [style, urls] of byStyle) {
      // The five metered GETs and the sign-up.
      assert.equal(urls.size, 6, `${style}: ${[...urls].join(' ')}`);
      for (const url of urls) {
        if (url === '/api/v1/developers') continue;
        const reply = await api.call(url, { key: api.key });
        assert.equal(reply.status, 200, `${style} ${url}: ${show(reply)}`);
      }
    }
    assert.deepEqual([...(byStyle.get('javascript') ?? [])], [...(byStyle.get('curl') ?? [])]);
    assert.deepEqual([...(byStyle.get('python') ?? [])], [...(byStyle.get('curl') ?? [])]);
  });

  test('reference examples - each parameter example of the description answers 200, and the sample is that answer', async () => {
    for (const [template, item] of Object.entries(paths)) {
      const op = item.get;
      if (op === undefined || template === '/api/v1/openapi.json') continue;
      let path = template;
      const query = new URLSearchParams();
      for (const p of op.parameters ?? []) {
        if (p.in === 'path') {
          assert.ok(p.example, `${op.operationId}: path parameter ${p.name} has no example`);
          path = path.replace(`{${p.name}}`, encodeURIComponent(p.example));
        } else if (p.example !== undefined && ['q', 'language'].includes(p.name)) query.set(p.name, p.example);
      }
      const reply = await api.call(`${path}${query.size > 0 ? `?${query}` : ''}`, { key: api.key });
      assert.equal(reply.status, 200, `${op.operationId}: ${show(reply)}`);
      const sample = op.responses['200']?.content?.['application/json']?.example;
      assert.ok(sample !== undefined, `${op.operationId} has no sample response`);
      if (op.operationId === 'getWord') assert.deepEqual(sample, reply.body);
      if (op.operationId === 'searchWords') {
        const served = (reply.body as { data: { id: number }[] }).data.map((w) => w.id);
        assert.deepEqual((sample as { data: { id: number }[] }).data.map((w) => w.id), served.slice(0, 2));
      }
    }
    const signUp = paths['/api/v1/developers']?.post;
    assert.ok(signUp?.responses['201']?.content?.['application/json']?.example, 'the sign-up has a sample response');
  });

  test('reference examples - the example search opens with a word, not a stray mark or a broken record', async () => {
    const q = paths['/api/v1/words']?.get?.parameters?.find((p) => p.name === 'q')?.example ?? '';
    assert.match(q, /^\p{L}[\p{L}\p{M}' -]*$/u, q);
    const id = paths['/api/v1/words/{id}']?.get?.parameters?.find((p) => p.name === 'id')?.example ?? '';
    const entry = (await api.call(`/api/v1/words/${encodeURIComponent(id)}`, { key: api.key })).body as { headword: string };
    assert.equal(entry.headword, q);
  });
});
