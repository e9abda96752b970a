// The route descriptors drive the server (services/api/routes.ts): against the real stack, every descriptor's
// method and path reach its own handler (not the not-found handler), and every GET answers HEAD with its status.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { routeName } from '../../services/api/http/route.ts';
import { ROUTES } from '../../services/api/routes.ts';
import { fakeClientIp, startStack } from '../support/stack.ts';

import type { Route } from '../../services/api/http/route.ts';
import type { Stack } from '../support/stack.ts';

/** Longer than the worker's request-log flush interval (50 ms, services/shared/log/bounded-output.ts). */
const LOG_FLUSH_WAIT_MS = 200;

let stack: Stack;
let key: string;
/** A value for each path parameter (and for the preflight's wildcard) that names something in the test snapshot. */
let examples: Record<string, string>;

before(async () => {
  stack = await startStack({ workers: 1 });
  key = (await stack.register()).apiKey;
  const page = await fetch(`${stack.baseUrl}/api/v1/words?q=omi&language=yo`, { headers: { 'x-api-key': key } });
  const [entry] = ((await page.json()) as { data: { id: number; slug: string }[] }).data;
  const index = (await (await fetch(`${stack.baseUrl}/downloads/index.json`)).json()) as { files: { name: string }[] };
  examples = {
    '/api/v1/words/{id}': `/api/v1/words/${entry.id}`,
    '/words/{slug}': `/words/${entry.slug}`,
    '/languages/{slug}': '/languages/yoruba',
    '/downloads/{name}': `/downloads/${index.files[0].name}`,
    '/api/*': '/api/v1/words',
  };
  // The request lines of these requests are written within the log's flush interval: let them land first.
  await new Promise((resolve) => setTimeout(resolve, LOG_FLUSH_WAIT_MS));
});
after(async () => {
  await stack?.stop();
});

/** The request a route's method and path make, with what the route needs to answer (a key, a body). */
function requestFor(route: Route): { url: string; init: RequestInit } {
  const url = `${stack.baseUrl}${examples[route.path] ?? route.path}`;
  const headers: Record<string, string> = { 'x-forwarded-for': fakeClientIp() };
  if (route.kind === 'metered') headers['x-api-key'] = key;
  let body: string | undefined;
  if (route.method === 'POST') {
    const email = `routes-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}@example.org`;
    const json = route.kind === 'api';
    headers['content-type'] = json ? 'application/json' : 'application/x-www-form-urlencoded';
    body = json ? JSON.stringify({ name: 'Route Test', email }) : `name=Route+Test&email=${encodeURIComponent(email)}`;
  }
  return { url, init: { method: route.method, headers, body, redirect: 'manual' } };
}

/** Request lines the worker logged for `name` so far. */
const loggedFor = (name: string): number => stack.logs().split('\n').filter((line) => line.includes(`"route":"${name}"`)).length;

describe('routes', () => {
  for (const route of ROUTES) {
    test(`routes - ${route.method} ${route.path} reaches its own handler`, async () => {
      const before = loggedFor(routeName(route));
      const { url, init } = requestFor(route);
      const res = await fetch(url, init);
      const text = await res.text();
      const shown = `${res.status} ${text.slice(0, 300)}`;
      assert.ok(res.status < 400, shown);
      // The API's routes log their own name (the not-found handler logs "not found"); pages log nothing.
      if (route.kind !== 'page') {
        await new Promise((resolve) => setTimeout(resolve, LOG_FLUSH_WAIT_MS));
        assert.equal(loggedFor(routeName(route)), before + 1, `no request line for ${routeName(route)}: ${shown}`);
      }
      if (route.method === 'GET') {
        const head = await fetch(url, { ...init, method: 'HEAD' });
        assert.equal(head.status, res.status, `HEAD ${url}`);
      }
    });
  }
});
