// POST /api/v1/developers: registers a developer (idempotent on email) and issues a free-plan key.
// No key needed, throttled per IP address by the metering service, no rate-limit headers (spec).
import { z } from 'zod';

import { invalidParameter } from '../../shared/errors.ts';
import { MAX_BODY_BYTES } from '../config.ts';
import { clientIp } from '../http/client-ip.ts';
import { NO_STORE } from '../http/headers.ts';
import { BodyTooLargeError } from '../http/hyper-express-adapter.ts';
import { mediaType } from '../http/params.ts';
import { sendJson } from '../http/pipeline.ts';
import { isCrossOriginBrowser } from '../http/same-origin.ts';
import { parseInput } from '../http/validate.ts';
import { ErrorSchema, QUOTA_EXCEEDED } from '../openapi/components.ts';
import { ORGANIZATION_MAX, registrationSchema, USE_CASE_MAX } from '../registration.ts';

import type { BodyRequest } from '../http/exchange.ts';
import type { ApiHandler, ApiRoute, RouteSetup } from '../http/route.ts';
import type { RegistrationBody } from '../registration.ts';

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

const { name, email, organization, useCase } = registrationSchema.shape;
/**
 * The body as the description shows it. Spec, Versioning 3: the route accepts keyName, which the description
 * omits. Other fields are ignored, not refused (passthrough: no additionalProperties), and email is an email.
 */
const documentedBodySchema = z
  .object({
    name,
    email: email.innerType().email(),
    organization: organization.describe(`Truncated to ${ORGANIZATION_MAX} characters.`),
    useCase: useCase.describe(`Truncated to ${USE_CASE_MAX} characters.`),
  })
  .passthrough();

export const developersCreate: ApiRoute = {
  kind: 'api',
  method: 'POST',
  path: '/api/v1/developers',
  // No CORS headers: a page of another origin cannot read an answer, even a refusal.
  cors: false,
  bodyLimitBytes: MAX_BODY_BYTES,
  request: { body: developersCreateBodySchema },
  openapi: {
    operationId: 'createDeveloper',
    tags: ['developers'],
    summary: 'Register a developer and issue a free-plan API key',
    description:
      'Idempotent on email: an existing developer receives an additional key. The plaintext key is ' +
      'returned once only. Throttled per IP address.',
    documentedBody: documentedBodySchema,
    responses: {
      // The spec types this response as a plain object without listed fields.
      201: { description: 'The developer, the key (shown once), its prefix and usage notes.', body: { type: 'object' } },
      400: { description: 'invalid_parameter: the message names the parameter.', body: ErrorSchema },
      // Spec, Versioning 3: described as the shared daily quota response, while the route answers rate_limited.
      429: QUOTA_EXCEEDED,
    },
    // Spec, Versioning 3: the route can answer 500 (internal_error); the description lists none.
    undocumentedStatuses: [500],
  },
  handler: registrationHandler,
};

function registrationHandler({ deps }: RouteSetup): ApiHandler<BodyRequest> {
  return async (req, res, ctx) => {
    // Read the peer before any await: it cannot be read once the response has ended.
    const ip = clientIp(req.ip, req.headers['x-forwarded-for'], deps.config.trustProxy);
    // A page elsewhere gets no key through its visitor's browser. Preflighted calls never get here (no
    // Access-Control-Allow-Origin on the preflight, routes.ts); this refuses those that skip the preflight,
    // before the throttle counts the visitor's address.
    if (isCrossOriginBrowser(req.headers)) throw invalidParameter('Origin', CROSS_ORIGIN_PROBLEM);
    // An address over the key-creation limit is refused before its body is read (and the attempt counted).
    deps.meter.refuseRegistration?.(ip);
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
  };
}

/**
 * The body as a JSON object, parsed here rather than by req.json() (which turns malformed JSON into {}).
 * Every refusal is invalid_parameter naming `body` (spec: missing, malformed, non-object, over 16 KiB). A
 * refusal from the headers goes out at once: nothing waits for the body, which uWS then discards.
 */
async function readJsonObject(req: BodyRequest): Promise<unknown> {
  if (req.framing.body === 'none') throw invalidParameter('body', 'is required: send a JSON object');
  if (mediaType(req.headers['content-type']) !== 'application/json') {
    throw invalidParameter('body', 'must be sent with Content-Type: application/json');
  }
  let text: string;
  try {
    // A chunked body announces no length: the 16 KiB cap is enforced while it arrives.
    text = (await req.body()).toString('utf8');
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
