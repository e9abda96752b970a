// POST /developers: the sign-up form, through the same schema, metering call and per-IP throttle as
// POST /api/v1/developers; the key is shown once on a page that is never stored by caches.
import { parse as parseQuery } from 'node:querystring';

import type { ZodIssue } from 'zod';

import { KEY_CREATION_LIMIT, KEY_CREATION_WINDOW_SECONDS } from '../../shared/plans.ts';
import { InvalidRegistrationError, MeteringUnavailableError, RateLimitedError } from '../../shared/domain-errors.ts';
import { MAX_BODY_BYTES } from '../config.ts';
import type { Deps } from '../deps.ts';
import { clientIp } from '../http/client-ip.ts';
import { BodyTooLargeError } from '../http/hyper-express-adapter.ts';
import { mediaType } from '../http/params.ts';
import type { BodyRequest, PipelineRequest } from '../http/exchange.ts';
import type { PageHandler } from '../http/route.ts';
import { isCrossOriginBrowser } from '../http/same-origin.ts';
import { EMAIL_MAX, KEY_NAME_MAX, NAME_MAX, ORGANIZATION_MAX, USE_CASE_MAX, registrationSchema } from '../registration.ts';
import type { Html } from './html.ts';
import type { AssetUrls } from './layout.ts';
import { SIGNUP_FIELDS, developersPage, keyCreatedPage } from './pages/developers.ts';
import type { SignupErrors, SignupField, SignupValues } from './pages/developers.ts';
import { CACHE, sendHtml } from './respond.ts';

const CROSS_SITE_PROBLEM = {
  title: 'Sign up on this site',
  detail: 'This form was sent from another website, so no key was created. Fill in the form below to get a key.',
};

/** Metering is down (fails closed): a short wait usually suffices while it restarts. */
const RETRY_SIGNUP_AFTER_SECONDS = 60;

/** What a person reads when a field is refused, by field and kind of problem (zod's issue code). */
const MESSAGES: Readonly<Record<SignupField, { missing: string; tooLong: string; malformed?: string }>> = {
  name: { missing: 'Enter your name', tooLong: `Enter a name of ${NAME_MAX} characters or fewer` },
  email: {
    missing: 'Enter your email address',
    tooLong: `Enter an email address of ${EMAIL_MAX} characters or fewer`,
    malformed: 'Enter an email like name@example.org',
  },
  organization: { missing: 'Enter your organization, or leave it empty', tooLong: `Enter an organization of ${ORGANIZATION_MAX} characters or fewer` },
  useCase: { missing: 'Say what you will build, or leave it empty', tooLong: `Say what you will build in ${USE_CASE_MAX} characters or fewer` },
  keyName: { missing: 'Enter a key name, or leave it empty', tooLong: `Enter a key name of ${KEY_NAME_MAX} characters or fewer` },
};

function humanMessage(field: SignupField, issue: ZodIssue): string {
  const messages = MESSAGES[field];
  if (issue.code === 'too_big') return messages.tooLong;
  if (issue.code === 'invalid_string') return messages.malformed ?? messages.missing;
  return messages.missing;
}

const isField = (value: unknown): value is SignupField => SIGNUP_FIELDS.includes(value as SignupField);

/** querystring.parse gives an array for a repeated field: the first value counts, as in the JSON route. */
function firstString(value: unknown): string | undefined {
  if (Array.isArray(value)) return firstString(value[0]);
  return typeof value === 'string' ? value : undefined;
}

export function readSignupForm(body: Readonly<Record<string, unknown>>): SignupValues {
  const values: SignupValues = {};
  for (const f of SIGNUP_FIELDS) {
    const v = firstString(body[f]);
    if (v !== undefined) values[f] = v;
  }
  return values;
}

export function validateSignup(values: SignupValues):
  | { ok: true; input: ReturnType<typeof registrationSchema.parse> }
  | { ok: false; errors: SignupErrors } {
  // An empty optional field in a form means "not given", as an absent JSON field does.
  const candidate = Object.fromEntries(Object.entries(values).filter(([k, v]) => v !== '' || k === 'name' || k === 'email'));
  const parsed = registrationSchema.safeParse(candidate);
  if (parsed.success) return { ok: true, input: parsed.data };
  const errors: SignupErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (isField(field) && !errors[field]) errors[field] = humanMessage(field, issue);
  }
  return { ok: false, errors };
}

/** The origin the visitor used, for the example command on the key page (display only). */
function baseUrl(req: PipelineRequest): string {
  const proto = req.headers['x-forwarded-proto'] === 'https' ? 'https' : 'http';
  const host = (req.headers.host ?? 'localhost').replace(/[^A-Za-z0-9.:[\]-]/g, '');
  return `${proto}://${host}`;
}

export function signupHandler(deps: Deps, assets: AssetUrls): PageHandler<BodyRequest> {
  const contact = deps.config.operatorContact;
  return async (req, res) => {
    // Read before the first await: the peer address is gone once the request has ended.
    const ip = clientIp(req.ip, req.headers['x-forwarded-for'], deps.config.trustProxy);
    const origin = baseUrl(req);
    // A form of another site, submitted in the visitor's browser (CSRF): no key, and no attempt counted
    // against the visitor's address.
    if (isCrossOriginBrowser(req.headers)) {
      sendHtml(req, res, developersPage({ assets, contact, problem: CROSS_SITE_PROBLEM }), { status: 403, cache: CACHE.noStore });
      return;
    }
    try {
      // An address over the key-creation limit is refused before its form is read (and the attempt counted).
      deps.meter.refuseRegistration?.(ip);
    } catch (err) {
      const failure = failurePage(err, deps, assets, {});
      sendHtml(req, res, failure.page, { status: failure.status, cache: CACHE.noStore, headers: failure.headers });
      return;
    }
    let body: Record<string, unknown> = {};
    if (mediaType(req.headers['content-type']) === 'application/x-www-form-urlencoded') {
      try {
        // The same 16 KiB cap as the API route, enforced while a chunked form arrives.
        body = parseQuery((await req.body()).toString('utf8'));
      } catch (error) {
        if (!(error instanceof BodyTooLargeError)) throw error;
        const problem = { title: 'The form is too large', detail: `A sign-up form can be at most ${MAX_BODY_BYTES / 1024} KiB.` };
        sendHtml(req, res, developersPage({ assets, contact, problem }), { status: 413, cache: CACHE.noStore });
        return;
      }
    }
    const values = readSignupForm(body);
    const checked = validateSignup(values);
    if (!checked.ok) {
      sendHtml(req, res, developersPage({ assets, contact, values, errors: checked.errors }), { status: 400, cache: CACHE.noStore });
      return;
    }
    try {
      const registration = await deps.meter.register(checked.input, ip);
      deps.log.info({ msg: 'website sign-up', keyPrefix: registration.keyPrefix });
      sendHtml(req, res, keyCreatedPage(assets, registration, origin), { status: 201, cache: CACHE.noStore });
    } catch (err) {
      const failure = failurePage(err, deps, assets, values);
      sendHtml(req, res, failure.page, { status: failure.status, cache: CACHE.noStore, headers: failure.headers });
    }
  };
}

function failurePage(
  err: unknown,
  deps: Deps,
  assets: AssetUrls,
  values: SignupValues,
): { page: Html; status: number; headers?: Record<string, string> } {
  const contact = deps.config.operatorContact;
  if (err instanceof InvalidRegistrationError && isField(err.parameter)) {
    // The metering service refused a value the form's own checks let through (its rules may be stricter).
    const errors = { [err.parameter]: `${MESSAGES[err.parameter].malformed ?? MESSAGES[err.parameter].missing} (${err.message})` };
    return { page: developersPage({ assets, contact, values, errors }), status: 400 };
  }
  if (err instanceof RateLimitedError) {
    const problem = {
      title: 'Too many sign-ups from your network (rate_limited)',
      detail: `Keys can be requested at most ${KEY_CREATION_LIMIT} times from one network address in ${KEY_CREATION_WINDOW_SECONDS / 60} minutes. Please try again in ${Math.ceil(err.retryAfterSeconds / 60)} minutes; keys you already have keep working.`,
    };
    // The same status and Retry-After as the JSON route's rate_limited.
    return { page: developersPage({ assets, contact, values, problem }), status: 429, headers: { 'Retry-After': String(err.retryAfterSeconds) } };
  }
  if (err instanceof MeteringUnavailableError) {
    const problem = { title: 'Sign-up is unavailable right now', detail: 'No key was created. Please try again in a few minutes.' };
    return { page: developersPage({ assets, contact, values, problem }), status: 503, headers: { 'Retry-After': String(RETRY_SIGNUP_AFTER_SECONDS) } };
  }
  deps.log.error({ msg: 'website sign-up failed', err: err instanceof Error ? err.stack : String(err) });
  const problem = { title: 'Something went wrong', detail: 'No key was created. Please try again later.' };
  return { page: developersPage({ assets, contact, values, problem }), status: 500 };
}
