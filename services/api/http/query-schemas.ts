// zod building blocks for query parameters, which arrive as strings (or arrays when repeated).
import { z } from 'zod';

/**
 * An integer parameter. Only plain decimal digits count as numbers (no `1e3`, `0x10` or ` 5` as
 * z.coerce would allow); the inner schema is what the OpenAPI description shows.
 */
export function intParam(min: number, max: number, fallback: number) {
  return z
    .preprocess(
      (v) => (typeof v === 'string' && /^-?[0-9]+$/.test(v) ? Number(v) : v),
      z.number().int().min(min).max(max),
    )
    .default(fallback);
}

/** An optional text filter; an empty value (`?language=` from a form) means the filter is absent. */
export function optionalParam<T extends z.ZodTypeAny>(schema: T) {
  return z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
}
