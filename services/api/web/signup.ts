// POST /developers: the sign-up form, through the same schema, metering call and per-IP throttle as
// POST /api/v1/developers; the key is shown once on a page that is never stored by caches.
import type { Request, Response } from 'hyper-express';

import { KEY_CREATION_LIMIT, KEY_CREATION_WINDOW_SECONDS } from '../../shared/plans.ts';
import { InvalidRegistrationError, MeteringUnavailableError, RateLimitedError } from '../../shared/domain-errors.ts';
import type { Deps } from '../deps.ts';
import { clientIp } from '../http/client-ip.ts';
import { isCrossOriginBrowser } from '../http/same-origin.ts';
import { registrationSchema } from '../registration.ts';
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

const FIELD_NOUNS: Readonly<Record<SignupField, string>> = {
  name: 'Name',
  email: 'Email address',
  organization: 'Organization',
  useCase: 'Use case',
  keyName: 'Key name',
};

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
    if (isField(field) && !errors[field]) errors[field] = `${FIELD_NOUNS[field]} ${issue.message}.`;
  }
  return { ok: false, errors };
}

/** The origin the visitor used, for the example command on the key page (display only). */
function baseUrl(req: Request): string {
  const proto = req.headers['x-forwarded-proto'] === 'https' ? 'https' : 'http';
  const host = (req.headers.host ?? 'localhost').replace(/[^A-Za-z0-9.:[\]-]/g, '');
  return `${proto}://${host}`;
}

export function signupHandler(deps: Deps, assets: AssetUrls) {
  return async (req: Request, res: Response): Promise<void> => {
    // Read before the first await: the peer address is gone once the request has ended.
    const ip = clientIp(req.ip, req.headers['x-forwarded-for'], deps.config.trustProxy);
    const origin = baseUrl(req);
    // A form of another site, submitted in the visitor's browser (CSRF): no key, and no attempt counted
    // against the visitor's address.
    if (isCrossOriginBrowser(req.headers)) {
      sendHtml(res, developersPage({ assets, problem: CROSS_SITE_PROBLEM }), { status: 403, cache: CACHE.noStore });
      return;
    }
    const contentType = req.headers['content-type'] ?? '';
    const body = contentType.startsWith('application/x-www-form-urlencoded')
      ? ((await req.urlencoded()) as Record<string, unknown>)
      : {};
    const values = readSignupForm(body);
    const checked = validateSignup(values);
    if (!checked.ok) {
      sendHtml(res, developersPage({ assets, values, errors: checked.errors }), { status: 400, cache: CACHE.noStore });
      return;
    }
    try {
      const registration = await deps.meter.register(checked.input, ip);
      deps.log.info({ msg: 'website sign-up', keyPrefix: registration.keyPrefix });
      sendHtml(res, keyCreatedPage(assets, registration, origin), { status: 201, cache: CACHE.noStore });
    } catch (err) {
      const failure = failurePage(err, deps, assets, values);
      sendHtml(res, failure.page, { status: failure.status, cache: CACHE.noStore, headers: failure.headers });
    }
  };
}

function failurePage(
  err: unknown,
  deps: Deps,
  assets: AssetUrls,
  values: SignupValues,
): { page: Html; status: number; headers?: Record<string, string> } {
  if (err instanceof InvalidRegistrationError && isField(err.parameter)) {
    const errors = { [err.parameter]: `${FIELD_NOUNS[err.parameter]}: ${err.message}` };
    return { page: developersPage({ assets, values, errors }), status: 400 };
  }
  if (err instanceof RateLimitedError) {
    const problem = {
      title: 'Too many sign-ups from your network (rate_limited)',
      detail: `Keys can be requested at most ${KEY_CREATION_LIMIT} times from one network address in ${KEY_CREATION_WINDOW_SECONDS / 60} minutes. Please try again in ${Math.ceil(err.retryAfterSeconds / 60)} minutes; keys you already have keep working.`,
    };
    // The same status and Retry-After as the JSON route's rate_limited.
    return { page: developersPage({ assets, values, problem }), status: 429, headers: { 'Retry-After': String(err.retryAfterSeconds) } };
  }
  if (err instanceof MeteringUnavailableError) {
    const problem = { title: 'Sign-up is unavailable right now', detail: 'No key was created. Please try again in a few minutes.' };
    return { page: developersPage({ assets, values, problem }), status: 503, headers: { 'Retry-After': String(RETRY_SIGNUP_AFTER_SECONDS) } };
  }
  deps.log.error({ msg: 'website sign-up failed', err: err instanceof Error ? err.stack : String(err) });
  const problem = { title: 'Something went wrong', detail: 'No key was created. Please try again later.' };
  return { page: developersPage({ assets, values, problem }), status: 500 };
}
