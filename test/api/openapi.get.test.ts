// GET /api/v1/openapi.json: a valid OpenAPI 3.1.0 description of exactly the six operations, generated from
// the route schemas, with the four deliberate differences of the spec's Versioning section.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { Validator } from '@seriousme/openapi-schema-validator';

import { MATCH_TYPES, PARTS_OF_SPEECH, SEARCH_SCOPES } from '../../services/shared/vocabulary.ts';
import { RATE_HEADERS, show, startApi } from './support.ts';

import type { Api } from './support.ts';

/** The parts of the document these tests read. */
interface Schema {
  $ref?: string;
  type?: unknown;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  default?: unknown;
}
interface Parameter {
  name: string;
  required?: boolean;
  description?: string;
  schema: Schema;
}
interface ResponseObject extends Schema {
  headers?: Record<string, unknown>;
  content?: Record<string, { schema: Schema }>;
}
interface Operation {
  security?: unknown;
  parameters: Parameter[];
  requestBody: { content: Record<string, { schema: Schema }> };
  responses: Record<string, ResponseObject>;
}
interface Doc {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, Record<string, unknown>>; schemas: Record<string, Schema> };
}

let api: Api;
let doc: Doc;
before(async () => {
  api = await startApi({ workers: 1 });
  doc = api.oas.doc as unknown as Doc;
});
after(async () => {
  await api?.stack.stop();
});

const resolve = (node: Schema): Schema => {
  if (typeof node.$ref !== 'string') return node;
  let target: unknown = doc;
  for (const part of node.$ref.slice(2).split('/')) target = (target as Record<string, unknown>)[part];
  return resolve(target as Schema);
};

describe('GET /api/v1/openapi.json', () => {
  test('GET /api/v1/openapi.json - served without a key, not metered, cached bytes', async () => {
    const a = await api.call('/api/v1/openapi.json');
    const b = await api.call('/api/v1/openapi.json');
    assert.equal(a.status, 200, show(a));
    assert.equal(a.text, b.text);
    for (const name of RATE_HEADERS) assert.equal(a.headers.get(name), null);
    assert.equal(a.headers.get('access-control-allow-origin'), '*');
  });

  test('GET /api/v1/openapi.json - valid OpenAPI 3.1 for a third-party validator', async () => {
    const result = await new Validator().validate(structuredClone(api.oas.doc) as Parameters<Validator["validate"]>[0]);
    assert.ok(result.valid, JSON.stringify(result.errors, null, 2));
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '1.0.0');
  });

  test('GET /api/v1/openapi.json - exactly the six operations of the spec, nothing else', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    assert.deepEqual(operations.sort(), [
      'GET /api/v1/languages',
      'GET /api/v1/stats',
      'GET /api/v1/word-of-the-day',
      'GET /api/v1/words',
      'GET /api/v1/words/{id}',
      'POST /api/v1/developers',
    ]);
  });

  test('GET /api/v1/openapi.json - one security scheme ApiKeyHeader, on the five metered operations only', () => {
    assert.deepEqual(Object.keys(doc.components.securitySchemes), ['ApiKeyHeader']);
    assert.deepEqual(doc.components.securitySchemes.ApiKeyHeader, {
      ...doc.components.securitySchemes.ApiKeyHeader,
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
    });
    for (const path of ['/api/v1/words', '/api/v1/words/{id}', '/api/v1/word-of-the-day', '/api/v1/languages', '/api/v1/stats']) {
      assert.deepEqual(doc.paths[path].get.security, [{ ApiKeyHeader: [] }], path);
    }
    assert.deepEqual(doc.paths['/api/v1/developers'].post.security, []);
  });

  test('GET /api/v1/openapi.json - matchType and partOfSpeech allowed values are documented', () => {
    const summary = doc.components.schemas.WordSummary.properties ?? {};
    assert.deepEqual(summary.matchType.enum, [...MATCH_TYPES]);
    assert.deepEqual(summary.partOfSpeech.enum, [...PARTS_OF_SPEECH]);
    const parameter = doc.paths['/api/v1/words'].get.parameters.find((p) => p.name === 'partOfSpeech');
    assert.deepEqual(parameter?.schema.enum, [...PARTS_OF_SPEECH]);
  });

  test('GET /api/v1/openapi.json - isVerified and the entry\'s dialect say what they mean', () => {
    const summary = doc.components.schemas.WordSummary.properties ?? {};
    assert.match(summary.isVerified.description ?? '', /^true only where the entry's source marks it as reviewed by a person/);
    const entry = resolve(doc.components.schemas.Entry).properties ?? {};
    assert.match(entry.isVerified.description ?? '', /reviewed by a person/);
    assert.match(JSON.stringify(entry.dialect), /Onitsha/);
    assert.ok(resolve(doc.components.schemas.Entry).required?.includes('dialect'));
  });

  test('GET /api/v1/openapi.json - the language parameters name the snapshot\'s active languages, none written in code', () => {
    const active = 'Active: ig (igbo), yo (yoruba), af (afrikaans), mg (malagasy), xh (xhosa), zu (zulu), sw (swahili), ha (hausa), ss (swati), ki (kikuyu), om (oromo), am (amharic).';
    for (const path of ['/api/v1/words', '/api/v1/word-of-the-day']) {
      const language = doc.paths[path].get.parameters.find((p) => p.name === 'language') as { description?: string } | undefined;
      assert.ok(language?.description?.endsWith(active), `${path}: ${language?.description}`);
    }
  });

  test('GET /api/v1/openapi.json - search parameters: limit 1..100 default 20, q at most 200, scope documented', () => {
    const parameters = Object.fromEntries(doc.paths['/api/v1/words'].get.parameters.map((p) => [p.name, p]));
    assert.deepEqual(Object.keys(parameters).sort(), ['language', 'limit', 'page', 'partOfSpeech', 'q', 'scope']);
    assert.deepEqual(parameters.scope.schema.enum, [...SEARCH_SCOPES]);
    assert.equal(parameters.scope.required ?? false, false);
    const text = `${parameters.scope.description ?? ''} ${parameters.scope.schema.description ?? ''}`;
    assert.match(text, /headword: the words of the language only .* meaning: English meanings only/, text);
    assert.equal(parameters.limit.schema.minimum, 1);
    assert.equal(parameters.limit.schema.maximum, 100);
    assert.equal(parameters.limit.schema.default, 20);
    assert.equal(parameters.q.schema.maxLength, 200);
  });

  test('GET /api/v1/openapi.json - difference 4: page has minimum 1 and no maximum', () => {
    const page = doc.paths['/api/v1/words'].get.parameters.find((p) => p.name === 'page');
    assert.equal(page?.schema.minimum, 1);
    assert.equal(page?.schema.default, 1);
    assert.equal(page?.schema.maximum, undefined);
  });

  test('GET /api/v1/openapi.json - difference 3: keyName is absent from the request body', () => {
    const schema = resolve(doc.paths['/api/v1/developers'].post.requestBody.content['application/json'].schema);
    const properties = schema.properties ?? {};
    assert.deepEqual(Object.keys(properties).sort(), ['email', 'name', 'organization', 'useCase']);
    assert.deepEqual(schema.required?.sort(), ['email', 'name']);
    assert.equal(properties.name.maxLength, 200);
    assert.equal(properties.email.maxLength, 200);
  });

  test('GET /api/v1/openapi.json - differences 1 and 2: the 429 is the daily quota response and no 500 is listed', () => {
    const responses = doc.paths['/api/v1/developers'].post.responses;
    assert.deepEqual(Object.keys(responses).sort(), ['201', '400', '429']);
    assert.deepEqual(responses['429'], { $ref: '#/components/responses/QuotaExceeded' });
    assert.match(resolve(responses['429']).description ?? '', /quota_exceeded/);
    assert.deepEqual(responses['201'].content?.['application/json'].schema, { type: 'object' });
  });

  test('GET /api/v1/openapi.json - metered operations list their errors and the rate-limit headers', () => {
    const search = doc.paths['/api/v1/words'].get.responses;
    assert.deepEqual(Object.keys(search).sort(), ['200', '400', '401', '429', '500']);
    assert.ok(search['200'].headers?.['Content-Range']);
    assert.ok(search['200'].headers?.['X-RateLimit-Used']);
    assert.deepEqual(Object.keys(doc.paths['/api/v1/words/{id}'].get.responses).sort(), ['200', '304', '401', '404', '429', '500']);
    const error = doc.components.schemas.Error;
    assert.deepEqual(error.required, ['error']);
    assert.ok(error.properties?.error.properties?.code.enum?.includes('quota_exceeded'));
  });

  test('GET /api/v1/openapi.json - neither /healthz nor the description itself is listed', () => {
    assert.equal(doc.paths['/healthz'], undefined);
    assert.equal(doc.paths['/api/v1/openapi.json'], undefined);
  });
});
