// The OpenAPI description is generated from the route descriptors (services/api/openapi/document.ts): every
// operation is a descriptor and every documented descriptor an operation, and the spec's deliberate differences
// (Versioning 3) are stated in the descriptors, where the route's own schemas sit beside what is documented.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { routeName } from '../../services/api/http/route.ts';
import { QUOTA_EXCEEDED } from '../../services/api/openapi/components.ts';
import { buildOpenApiDocument } from '../../services/api/openapi/document.ts';
import { ROUTES } from '../../services/api/routes.ts';
import { developersCreate } from '../../services/api/routes/developers.create.ts';
import { wordsSearch } from '../../services/api/routes/words.search.ts';
import { METERED_ENDPOINTS } from '../../services/shared/plans.ts';

import type { z } from 'zod';

interface Document {
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
}

const document = buildOpenApiDocument(ROUTES) as unknown as Document;
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
);

describe('OpenAPI document', () => {
  test('OpenAPI document - every operation is a route descriptor with that method, path and operationId', () => {
    for (const { method, path, operation } of operations) {
      const route = ROUTES.find((r) => r.method === method && r.path === path);
      assert.ok(route, `${method} ${path} has no descriptor`);
      assert.equal(route.openapi?.operationId, operation.operationId);
      assert.deepEqual(Object.keys(operation.responses).map(Number), Object.keys(route.openapi?.responses ?? {}).map(Number));
    }
  });

  test('OpenAPI document - every descriptor with an OpenAPI part is an operation, and the others are not', () => {
    for (const route of ROUTES) {
      const listed = operations.some((o) => o.method === route.method && o.path === route.path);
      assert.equal(listed, route.openapi !== undefined, routeName(route));
    }
    assert.equal(operations.length, 6, 'spec, Versioning 2: six operations');
  });

  test('OpenAPI document - one descriptor per method and path', () => {
    const names = ROUTES.map(routeName);
    assert.deepEqual(names, [...new Set(names)]);
  });

  test('OpenAPI document - a metered route is metered by its method and path, as quota_exceeded names it', () => {
    const metered = ROUTES.flatMap((r) => (r.kind === 'metered' ? [r] : []));
    assert.deepEqual(metered.map((r) => r.endpoint), [...METERED_ENDPOINTS]);
    for (const route of metered) assert.equal(route.endpoint, `${route.method} ${route.path}`);
  });

  test('OpenAPI document - difference 1: registration documents the quota response for its 429', () => {
    assert.deepEqual(developersCreate.openapi?.responses[429], QUOTA_EXCEEDED);
  });

  test('OpenAPI document - difference 2: registration can answer 500, which it does not document', () => {
    assert.deepEqual(developersCreate.openapi?.undocumentedStatuses, [500]);
    assert.equal(developersCreate.openapi?.responses[500], undefined);
  });

  test('OpenAPI document - difference 3: the route reads keyName, the documented body has none', () => {
    const enforced = developersCreate.request?.body as z.AnyZodObject;
    const documented = developersCreate.openapi?.documentedBody as z.AnyZodObject;
    assert.ok('keyName' in enforced.shape);
    assert.ok(!('keyName' in documented.shape));
    assert.deepEqual(Object.keys(documented.shape), Object.keys(enforced.shape).filter((k) => k !== 'keyName'));
  });

  test('OpenAPI document - difference 4: page stops at 10,000 in the route only', () => {
    const enforced = wordsSearch.request?.query?.shape.page as z.ZodTypeAny;
    const documented = wordsSearch.openapi?.documentedQuery?.shape.page as z.ZodTypeAny;
    assert.equal(enforced.safeParse(10_001).success, false);
    assert.equal(enforced.safeParse(10_000).success, true);
    assert.equal(documented.safeParse(10_001).success, true);
    assert.equal(documented.safeParse(0).success, false);
  });
  test('OpenAPI document - matchType lists inflected, and the search and matchType descriptions say where it ranks', () => {
    const text = JSON.stringify(document);
    const matchType = /"matchType":\{[^}]*"enum":\[([^\]]*)\]/.exec(text)?.[1] ?? '';
    assert.match(matchType, /"form","inflected","prefix"/, matchType);
    assert.match(text, /inflected \(q read by the language's rules as an inflected form of the entry/);
    assert.match(text, /form 3, inflected 2, prefix 1/);
    assert.match(wordsSearch.openapi?.description ?? '', /inflected: q read as an inflected form of the entry/);
  });
});
