// A zod building block for query parameters, and the parser that reads query text into what schemas check.
// Parameters arrive as strings (arrays when a name repeats). The text-to-value step is written here, before
// zod, instead of with z.preprocess: every ZodEffects parse builds a context object with a getter and a
// bound function, and under the search mix (five parameters per request) such objects outlive V8's
// young-generation collections and are promoted, to be found dead only by a full collection.
import { z } from 'zod';

import { parseInput } from './validate.ts';

/**
 * An integer parameter. Only plain decimal digits count as numbers (no `1e3`, `0x10` or ` 5` as z.coerce
 * would allow): queryParser turns them into numbers; anything else reaches z.number and is refused.
 */
export function intParam(min: number, max: number, fallback: number) {
  return z.number().int().min(min).max(max).default(fallback);
}

const DECIMAL = /^-?[0-9]+$/;

/** The schema under defaults, optionals and effects: what decides how a parameter's text is read. */
function baseType(schema: z.ZodTypeAny): z.ZodTypeAny {
  if (schema instanceof z.ZodDefault) return baseType(schema._def.innerType as z.ZodTypeAny);
  if (schema instanceof z.ZodOptional) return baseType(schema.unwrap() as z.ZodTypeAny);
  if (schema instanceof z.ZodEffects) return baseType(schema.innerType() as z.ZodTypeAny);
  return schema;
}

/**
 * Validation of a query against an object schema of query parameters: decimal text becomes a number for a
 * number field (intParam), an empty value of an optional field without a default is absent (`?language=`
 * from a form means no language filter), and zod checks the rest (a repeated name stays an array and is
 * refused as the wrong type). The first failure is invalid_parameter naming the parameter.
 */
export function queryParser<S extends z.AnyZodObject>(schema: S): (parameters: Record<string, unknown>) => z.output<S> {
  const numbers = new Set<string>();
  const emptyIsAbsent = new Set<string>();
  for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodTypeAny>)) {
    if (baseType(field) instanceof z.ZodNumber) numbers.add(name);
    else if (field instanceof z.ZodOptional) emptyIsAbsent.add(name);
  }
  return (parameters) => {
    // No prototype: a parameter named __proto__ (an array when repeated) is then a field like any other.
    const input: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const name of Object.keys(parameters)) {
      const value = parameters[name];
      if (typeof value === 'string') {
        if (value === '' && emptyIsAbsent.has(name)) continue;
        if (numbers.has(name) && DECIMAL.test(value)) {
          input[name] = Number(value);
          continue;
        }
      }
      input[name] = value;
    }
    return parseInput(schema, input, 'query');
  };
}
