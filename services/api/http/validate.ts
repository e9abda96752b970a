// The one validation hook: parses input with a route's zod schema and turns the first failure into
// invalid_parameter naming the parameter.
import { ApiError } from '../../shared/errors.ts';

import type { z } from 'zod';

/** Phrasing for zod's built-in issues; messages written in a schema take precedence (zod v3 priority). */
const errorMap: z.ZodErrorMap = (issue, ctx) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.received === 'undefined') return { message: 'is required' };
      if (issue.expected === 'integer' || issue.expected === 'number') return { message: 'must be an integer' };
      if (issue.expected === 'object') return { message: 'must be a JSON object' };
      return { message: `must be a ${issue.expected}` };
    case 'too_small':
      if (issue.type === 'string') {
        return { message: issue.minimum === 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters` };
      }
      return { message: `must be at least ${issue.minimum}` };
    case 'too_big':
      if (issue.type === 'string') return { message: `must be at most ${issue.maximum} characters` };
      return { message: `must be at most ${issue.maximum}` };
    case 'invalid_enum_value':
      return { message: `must be one of: ${issue.options.join(', ')}` };
    case 'unrecognized_keys':
      return { message: `unknown field(s): ${issue.keys.join(', ')}` };
    default:
      return { message: ctx.defaultError };
  }
};

/**
 * Validates `input` against `schema`; `fallbackName` names the parameter when the failure is about the
 * whole input (e.g. the body is not an object).
 */
export function parseInput<S extends z.ZodTypeAny>(schema: S, input: unknown, fallbackName: string): z.output<S> {
  const result = schema.safeParse(input, { errorMap });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const name = issue.path.length > 0 ? issue.path.join('.') : fallbackName;
  throw new ApiError('invalid_parameter', `Invalid parameter '${name}': ${issue.message}`);
}
