// zod → JSON Schema for the OpenAPI 3.1 description (whose schemas are JSON Schema 2020-12 compatible).
import { zodToJsonSchema } from 'zod-to-json-schema';

import type { JsonSchema } from '../http/route.ts';
import type { z } from 'zod';

/**
 * The 2019-09 target writes nullable as `type: [t, "null"]`, valid in OpenAPI 3.1 (the openApi3 target
 * writes 3.0's `nullable`, which 3.1 dropped). Schemas are inlined (`$refStrategy: none`) so that each one
 * stands alone wherever it is placed; effects document their input (what the client sends). An object that
 * lets other fields through (`passthrough`) gets no `additionalProperties`, JSON Schema's "anything else".
 */
export function toJsonSchema(schema: z.ZodTypeAny): JsonSchema {
  const json = zodToJsonSchema(schema, {
    target: 'jsonSchema2019-09',
    $refStrategy: 'none',
    effectStrategy: 'input',
    allowedAdditionalProperties: undefined,
  }) as JsonSchema;
  delete json.$schema;
  return json;
}

export interface Parameter {
  name: string;
  in: string;
  required: boolean;
  description?: string;
  schema: JsonSchema;
  /** A value that answers 200 in the snapshot served (examples.ts). */
  example?: string;
}

/** One entry of `parameters` per field of a zod object schema of query or path parameters. */
export function parametersOf(schema: z.AnyZodObject, location: 'query' | 'path'): Parameter[] {
  return Object.entries(schema.shape as Record<string, z.ZodTypeAny>).map(([name, field]) => {
    const json = withoutOptionalBranch(toJsonSchema(field));
    const description = typeof json.description === 'string' ? json.description : undefined;
    delete json.description;
    return {
      name,
      in: location,
      required: location === 'path' || !field.isOptional(),
      ...(description ? { description } : {}),
      schema: json,
    };
  });
}

/**
 * A standalone optional schema converts to `anyOf: [{not: {}}, T]` (the "undefined" branch); a parameter
 * says optional through `required: false` instead, so keep T.
 */
function withoutOptionalBranch(json: JsonSchema): JsonSchema {
  const anyOf = json.anyOf;
  if (!Array.isArray(anyOf)) return json;
  const branches = (anyOf as JsonSchema[]).filter((b) => !(b.not && Object.keys(b.not as object).length === 0));
  if (branches.length !== 1) return json;
  const { anyOf: _dropped, ...rest } = json;
  return { ...rest, ...branches[0] };
}
