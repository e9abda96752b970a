// POST /api/v1/developers: registers a developer (idempotent on email) and issues a free-plan key.
// No key needed, throttled per IP address by the metering service, no rate-limit headers (spec).
import { invalidParameter } from '../../shared/errors.ts';
import { MAX_BODY_BYTES } from '../config.ts';
import { clientIp } from '../http/client-ip.ts';
import { NO_STORE } from '../http/headers.ts';
import { BodyTooLargeError, declaredBody, readBody } from '../http/hyper-express-adapter.ts';
import { mediaType } from '../http/params.ts';
import { pipeline, sendJson } from '../http/pipeline.ts';
import { isCrossOriginBrowser } from '../http/same-origin.ts';
import { parseInput } from '../http/validate.ts';
import { registrationSchema } from '../registration.ts';

import type { Deps } from '../deps.ts';
import type { RegistrationBody } from '../registration.ts';
import type { Request, Server } from 'hyper-express';

/** The body schema is the one the website's sign-up form shares (registration.ts). */
export const developersCreateBodySchema = registrationSchema;
export type DevelopersCreateBody = RegistrationBody;

export const KEY_WARNING =
  'Store this API key now: it is shown only once and cannot be recovered. If you lose it, request a new key.';
export const KEY_USAGE =
  'Send the key in the X-API-Key header with every request to a metered endpoint, e.g. X-API-Key: svc_live_...';
/** The refusal of a browser page of another origin (invalid_parameter: the spec's closed list has no 403). */
export const CROSS_ORIGIN_PROBLEM =
  'keys are not issued to web pages of other sites. Call this endpoint from your own server, or sign up at /developers.';

export function registerDevelopersCreate(app: Server, deps: Deps): void {
  app.post(
    '/api/v1/developers',
    { max_body_length: MAX_BODY_BYTES },
    pipeline(
      app,
      deps,
      'POST /api/v1/developers',
      async (req, res, ctx) => {
        // Read the peer before any await: hyper-express refuses req.ip once the response has ended.
        const ip = clientIp(req.ip, req.headers['x-forwarded-for'], deps.config.trustProxy);
        // A page elsewhere gets no key through its visitor's browser. Preflighted calls never get here (app.ts);
        // this refuses those that skip the preflight, before the throttle counts the visitor's address.
        if (isCrossOriginBrowser(req.headers)) throw invalidParameter('Origin', CROSS_ORIGIN_PROBLEM);
        const body = await readJsonObject(req);
        const input = parseInput(developersCreateBodySchema, body, 'body');
        const registration = await deps.meter.register(input, ip);
        ctx.keyPrefix = registration.keyPrefix;
        res.header('cache-control', NO_STORE);
        sendJson(
          res,
          ctx,
          201,
          JSON.stringify({
            developer: registration.developer,
            apiKey: registration.apiKey,
            keyPrefix: registration.keyPrefix,
            warning: KEY_WARNING,
            usage: KEY_USAGE,
          }),
        );
      },
      // No CORS headers: a page of another origin cannot read an answer, even a refusal.
      { cors: false },
    ),
  );
}

/**
 * The body as a JSON object, parsed here rather than by req.json() (which turns malformed JSON into {}).
 * Every refusal is invalid_parameter naming `body` (spec: missing, malformed, non-object, over 16 KiB). A
 * refusal from the headers goes out at once: nothing waits for the body, which uWS then discards.
 */
async function readJsonObject(req: Request): Promise<unknown> {
  const declared = declaredBody(req);
  if (declared.body === 'none') throw invalidParameter('body', 'is required: send a JSON object');
  if (mediaType(req.headers['content-type']) !== 'application/json') {
    throw invalidParameter('body', 'must be sent with Content-Type: application/json');
  }
  let text: string;
  try {
    // A chunked body announces no length: the 16 KiB cap is enforced while it arrives.
    text = (await readBody(req)).toString('utf8');
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw invalidParameter('body', `must be at most ${MAX_BODY_BYTES} bytes`);
    throw error;
  }
  if (text.trim() === '') throw invalidParameter('body', 'is required: send a JSON object');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidParameter('body', 'must be valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw invalidParameter('body', 'must be a JSON object');
  }
  return parsed;
}
