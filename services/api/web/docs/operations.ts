// Reads the operations out of the OpenAPI description that /api/v1/openapi.json serves, resolving the shared
// responses, so that /docs shows what the description says and nothing written twice.
import type { Operation, Parameter } from './operation-view.ts';
import type { Schema } from './schema-view.ts';

type Json = Readonly<Record<string, unknown>>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const RESPONSE_PREFIX = '#/components/responses/';

function object(value: unknown): Json {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}

export function operationsOf(document: Json): Operation[] {
  const components = object(document.components);
  const sharedResponses = object(components.responses);
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(object(document.paths))) {
    for (const method of METHODS) {
      const op = object(object(item)[method]);
      if (Object.keys(op).length === 0) continue;
      const security = Array.isArray(op.security) ? op.security : [];
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: String(op.operationId ?? `${method}-${path}`),
        summary: String(op.summary ?? path),
        description: typeof op.description === 'string' ? op.description : undefined,
        keyed: security.length > 0,
        parameters: (Array.isArray(op.parameters) ? op.parameters : []) as Parameter[],
        requestBody: jsonSchema(object(op.requestBody)),
        responses: Object.entries(object(op.responses)).map(([status, value]) => {
          const ref = object(value).$ref;
          const response = typeof ref === 'string' && ref.startsWith(RESPONSE_PREFIX) ? object(sharedResponses[ref.slice(RESPONSE_PREFIX.length)]) : object(value);
          return {
            status,
            description: String(response.description ?? ''),
            body: jsonSchema(response),
            headers: Object.keys(object(response.headers)),
            example: object(object(response.content)['application/json']).example,
          };
        }),
      });
    }
  }
  return operations;
}

/** The application/json schema of a request body or response, when it has one. */
function jsonSchema(holder: Json): Schema | undefined {
  const schema = object(object(object(holder.content)['application/json']).schema);
  return Object.keys(schema).length > 0 ? schema : undefined;
}

/** The named schemas of the description (components.schemas), in its order. */
export function schemasOf(document: Json): Array<[string, Schema]> {
  return Object.entries(object(object(document.components).schemas)).map(([name, schema]) => [name, object(schema)]);
}
