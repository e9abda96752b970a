// Validates HTTP responses against the served OpenAPI 3.1 description with ajv (JSON Schema 2020-12):
// the status must be documented for the operation and the body must match its schema.
import assert from 'node:assert/strict';

import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

import type { ValidateFunction } from 'ajv/dist/2020.js';

type Json = Record<string, unknown>;
const DOC_ID = 'https://dictionary.invalid/openapi.json';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export interface OpenApiValidator {
  readonly doc: Json;
  /**
   * Asserts that a response is described: `path` is the concrete path (query string ignored), `body` the
   * parsed JSON (undefined for no body).
   */
  check(method: string, path: string, status: number, body: unknown): void;
  /** fetch + check in one: returns the response and its parsed body. */
  fetch(url: string, init?: RequestInit): Promise<{ res: Response; body: unknown; text: string }>;
}

export async function loadOpenApiValidator(baseUrl: string): Promise<OpenApiValidator> {
  const res = await fetch(`${baseUrl}/api/v1/openapi.json`);
  assert.equal(res.status, 200, 'openapi.json must be served');
  return openApiValidator((await res.json()) as Json);
}

export function openApiValidator(doc: Json): OpenApiValidator {
  // strict: false because the document is registered whole (openapi, paths … are not schema keywords);
  // only the schemas under components are ever compiled.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: DOC_ID });
  const compiled = new Map<string, ValidateFunction>();
  const paths = doc.paths as Record<string, Record<string, Json>>;
  const templates = Object.keys(paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));

  const resolve = (node: Json): Json => {
    const ref = node.$ref;
    if (typeof ref !== 'string') return node;
    const parts = ref.replace(/^#\//, '').split('/');
    let target: unknown = doc;
    for (const part of parts) target = (target as Json)[part];
    return resolve(target as Json);
  };

  const check: OpenApiValidator['check'] = (method, concretePath, status, body) => {
    const path = concretePath.split('?')[0];
    const match = templates.find((t) => t.pattern.test(path));
    assert.ok(match, `no documented path matches ${path}`);
    const operation = paths[match.template][method.toLowerCase()];
    assert.ok(operation, `${method} ${match.template} is not documented`);
    const responses = operation.responses as Record<string, Json>;
    const described = responses[String(status)] ?? responses.default;
    assert.ok(described, `${method} ${match.template}: status ${status} is not documented (body: ${JSON.stringify(body)})`);
    const response = resolve(described);
    const content = response.content as Record<string, { schema: Json }> | undefined;
    if (!content) {
      assert.equal(body, undefined, `${method} ${match.template} ${status} documents no body`);
      return;
    }
    const media = content['application/json'];
    assert.ok(media, `${method} ${match.template} ${status}: no application/json content documented`);
    const key = `${method} ${match.template} ${status}`;
    let validate = compiled.get(key);
    if (!validate) {
      const schema = media.schema;
      validate = ajv.compile(
        typeof schema.$ref === 'string' ? { $ref: `${DOC_ID}${schema.$ref}` } : schema,
      );
      compiled.set(key, validate);
    }
    const valid = validate(body);
    assert.ok(
      valid,
      `${key} does not match the OpenAPI description: ${ajv.errorsText(validate.errors)}\nbody: ${JSON.stringify(body).slice(0, 2000)}`,
    );
  };

  return {
    doc,
    check,
    async fetch(url, init) {
      const res = await fetch(url, init);
      const text = await res.text();
      const body = text === '' ? undefined : (JSON.parse(text) as unknown);
      check(init?.method ?? 'GET', new URL(url).pathname, res.status, body);
      return { res, body, text };
    },
  };
}
