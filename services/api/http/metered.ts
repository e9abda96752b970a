// Authentication and metering for the five metered routes: read the key, admit it through the Meter, and put
// the rate-limit headers on every response from then on (errors included).
import { QuotaExceededError } from '../../shared/domain-errors.ts';
import { missingApiKey } from '../../shared/errors.ts';

import type { MeteredEndpoint } from '../../shared/plans.ts';
import type { Deps } from '../deps.ts';
import type { Admission } from '../metering/meter.ts';
import type { RequestContext } from './pipeline.ts';
import type { Request, Response } from 'hyper-express';

export type MeteredHandler = (
  req: Request,
  res: Response,
  ctx: RequestContext,
  admission: Admission,
) => void | Promise<void>;

const BEARER = 'Bearer ';

/**
 * Spec (Authentication 3): X-API-Key first; only when it is absent or empty, `Authorization` when it starts
 * with `Bearer ` (case as written). Both carry the same key.
 */
export function apiKeyFrom(headers: Readonly<Record<string, string | undefined>>): string | undefined {
  const direct = headers['x-api-key'];
  if (direct !== undefined && direct !== '') return direct;
  const authorization = headers.authorization;
  if (authorization !== undefined && authorization.startsWith(BEARER)) {
    const key = authorization.slice(BEARER.length).trim();
    if (key !== '') return key;
  }
  return undefined;
}

/**
 * Wraps a handler so that it runs only for an admitted key. Parameters are validated by the handler, i.e.
 * after admission: a bad-parameter request on a valid key counts and carries the headers (spec, Errors 2).
 * Synchronous when the worker holds allowance for the key (admitNow); a promise only when the metering
 * service must be asked.
 */
export function metered(deps: Deps, endpoint: MeteredEndpoint, handler: MeteredHandler) {
  const admitted = (req: Request, res: Response, ctx: RequestContext, admission: Admission): void | Promise<void> => {
    ctx.keyPrefix = admission.keyPrefix;
    setRateLimitHeaders(res, admission.limit, admission.remaining, admission.used);
    return handler(req, res, ctx, admission);
  };
  return (req: Request, res: Response, ctx: RequestContext): void | Promise<void> => {
    const key = apiKeyFrom(req.headers);
    // Spec (Authentication 4, 6): refused before the handler, without rate-limit headers.
    if (key === undefined) throw missingApiKey();
    let now: Admission | undefined;
    try {
      now = deps.meter.admitNow?.(key, endpoint);
    } catch (error) {
      throw refusal(res, error);
    }
    if (now !== undefined) return admitted(req, res, ctx, now);
    return deps.meter.admit(key, endpoint).then(
      (admission) => admitted(req, res, ctx, admission),
      (error: unknown) => {
        throw refusal(res, error);
      },
    );
  };
}

/** A quota refusal still carries the rate-limit headers (spec, Errors 2); the error goes on to the pipeline. */
function refusal(res: Response, error: unknown): unknown {
  if (error instanceof QuotaExceededError) {
    const { limit, used } = error.state;
    setRateLimitHeaders(res, limit, 0, used);
  }
  return error;
}

function setRateLimitHeaders(res: Response, limit: number, remaining: number, used: number): void {
  res.header('x-ratelimit-limit', String(limit));
  res.header('x-ratelimit-remaining', String(remaining));
  res.header('x-ratelimit-used', String(used));
}
