// The OpenAPI 3.1.0 description, generated from the route descriptors (services/api/routes.ts): each route with
// an `openapi` part is one operation, its parameters and body from the zod schemas it validates with (or the
// ones its descriptor documents instead, where the spec's Versioning section makes the two differ).
import { z } from 'zod';

import { API_KEY_SECURITY, components, NAMED_SCHEMAS } from './components.ts';
import { parametersOf, toJsonSchema } from './json-schema.ts';

import type { Language } from '../../shared/schemas.ts';
import type { JsonSchema, OperationDoc, ResponseDoc, Route } from '../http/route.ts';
import type { ReferenceExamples } from './examples.ts';
import type { Parameter } from './json-schema.ts';

const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

/**
 * The description of `routes` (the operations in their order). `languages`: the snapshot's; the active ones
 * name themselves in the `language` parameters and in the description's opening text. `examples`: drawn
 * from the snapshot served (examples.ts): parameter examples and a sample body per operation.
 */
export function buildOpenApiDocument(routes: readonly Route[], languages: readonly Language[] = [], examples?: ReferenceExamples): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: info(languages, examples?.licences ?? []),
    servers: [{ url: '/' }],
    tags: [
      { name: 'words', description: 'Search and entries' },
      { name: 'reference', description: 'Languages and totals' },
      { name: 'developers', description: 'API keys' },
    ],
    paths: paths(routes, languages, examples),
    components: components(),
  };
}

function info(languages: readonly Language[], licences: readonly string[]): Record<string, unknown> {
  const active = languages.filter((l) => l.status === 'active').map((l) => l.name);
  const languageList = active.length > 1 ? `${active.slice(0, -1).join(', ')} and ${active[active.length - 1]}` : (active[0] ?? 'none yet');
  return {
    title: 'African Languages Dictionary API',
    version: '1.0.0',
    description:
      `An open dictionary of African languages (${languageList}): search with or without tone marks, full ` +
      'entries with their source and licence, word of the day, languages and totals. Metered endpoints need ' +
      'a free API key (POST /api/v1/developers). Daily limits per key and endpoint: free 1,000, team 50,000, ' +
      'institution 500,000; they reset at 00:00 UTC. The data is not under one licence: every entry states ' +
      'the licence it arrived under and its source (its `licence` and `source`), and so does each example ' +
      `and pronunciation${licences.length > 0 ? ` (in this snapshot: ${licences.join(', ')})` : ''}; keep the ` +
      'attribution with what you show.',
    license: { name: 'Per entry: each entry, example and pronunciation names its own licence' },
  };
}

function paths(routes: readonly Route[], languages: readonly Language[], examples: ReferenceExamples | undefined): Record<string, Record<string, unknown>> {
  const items: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (route.openapi === undefined) continue;
    items[route.path] ??= {};
    items[route.path][route.method.toLowerCase()] = operation(route, route.openapi, languages, examples);
  }
  return items;
}

function operation(route: Route, doc: OperationDoc, languages: readonly Language[], examples: ReferenceExamples | undefined): Record<string, unknown> {
  const parameters = [
    ...parametersOf(route.request?.params ?? z.object({}), 'path'),
    ...parametersOf(doc.documentedQuery ?? route.request?.query ?? z.object({}), 'query'),
  ]
    .map((p) => withLanguages(p, languages))
    .map((p) => withExample(p, examples?.parameters));
  const body = doc.documentedBody ?? route.request?.body;
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(doc.responses)) {
    // The success response carries a sample body taken from the snapshot served.
    const sample = status.startsWith('2') ? examples?.responses[doc.operationId] : undefined;
    responses[status] = responseObject(response, sample);
  }
  return {
    operationId: doc.operationId,
    tags: doc.tags,
    summary: doc.summary,
    ...(doc.description === undefined ? {} : { description: doc.description }),
    // The metered operations need a key; the others (registration) none.
    security: route.kind === 'metered' ? API_KEY_SECURITY : [],
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(body === undefined ? {} : { requestBody: { required: true, content: json(bodySchema(body)) } }),
    responses,
  };
}

function responseObject(response: ResponseDoc, sample: unknown): unknown {
  if ('$ref' in response) return response;
  const { description, headers, body } = response;
  const content = body === undefined ? undefined : { 'application/json': { schema: bodySchema(body), ...(sample === undefined ? {} : { example: sample }) } };
  return {
    description,
    ...(headers === undefined ? {} : { headers }),
    ...(content === undefined ? {} : { content }),
  };
}

/** A parameter with the example value that answers 200 in the snapshot served, where there is one. */
function withExample(parameter: Parameter, values: Readonly<Record<string, string>> | undefined): Parameter {
  const value = values?.[parameter.name];
  return value === undefined ? parameter : { ...parameter, example: value };
}

/** A named schema by reference, another zod schema converted, JSON Schema as written. */
function bodySchema(body: z.ZodTypeAny | JsonSchema): JsonSchema {
  if (!(body instanceof z.ZodType)) return body;
  const name = Object.keys(NAMED_SCHEMAS).find((key) => NAMED_SCHEMAS[key] === body);
  return name === undefined ? toJsonSchema(body) : { $ref: `#/components/schemas/${name}` };
}

/** A `language` parameter's description completed with the active languages of the snapshot served. */
function withLanguages(parameter: Parameter, languages: readonly Language[]): Parameter {
  if (parameter.name !== 'language') return parameter;
  const active = languages.filter((l) => l.status === 'active');
  const text = active.length === 0 ? 'No language is active in this snapshot.' : `Active: ${active.map((l) => `${l.code} (${l.slug})`).join(', ')}.`;
  return { ...parameter, description: `${parameter.description ?? ''} ${text}`.trim() };
}
