// /developers: what the API offers, the plans, the sign-up form and, after a sign-up, the key shown once.
import { DAILY_LIMITS, KEY_CREATION_LIMIT, KEY_CREATION_WINDOW_SECONDS, PLANS } from '../../../shared/plans.ts';
import type { Plan } from '../../../shared/plans.ts';
import type { Registration } from '../../metering-client/meter.ts';
// The same warning the JSON route returns with a new key.
import { KEY_WARNING } from '../../routes/developers.create.ts';
import { EMAIL_MAX, KEY_NAME_MAX, NAME_MAX, ORGANIZATION_MAX, USE_CASE_MAX } from '../../registration.ts';
import type { OperatorContact } from '../../operator-contact.ts';
import { operatorContactText } from '../components.ts';
import { html } from '../html.ts';
import type { Html } from '../html.ts';
import { layout } from '../layout.ts';
import type { AssetUrls } from '../layout.ts';

export const SIGNUP_FIELDS = ['name', 'email', 'organization', 'useCase', 'keyName'] as const;
export type SignupField = (typeof SIGNUP_FIELDS)[number];
export type SignupValues = Partial<Record<SignupField, string>>;
export type SignupErrors = Partial<Record<SignupField, string>>;

export interface DevelopersPageInput {
  assets: AssetUrls;
  /** OPERATOR_CONTACT, for the team and institution plans. */
  contact: OperatorContact | undefined;
  values?: SignupValues;
  errors?: SignupErrors;
  /** A failure that concerns no single field (rate_limited, metering unavailable). */
  problem?: { title: string; detail: string };
}

const PLAN_PRICE: Readonly<Record<Plan, string>> = { free: 'Free', team: 'Ask the operator', institution: 'Ask the operator' };

const FIELDS: ReadonlyArray<{ name: SignupField; label: string; hint: string; max: number; required: boolean; type: 'text' | 'email' | 'textarea'; autocomplete?: string }> = [
  { name: 'name', label: 'Your name', hint: '', max: NAME_MAX, required: true, type: 'text', autocomplete: 'name' },
  { name: 'email', label: 'Email address', hint: 'Signing up again with the same address gives you another key on the same account.', max: EMAIL_MAX, required: true, type: 'email', autocomplete: 'email' },
  { name: 'organization', label: 'Organization (optional)', hint: '', max: ORGANIZATION_MAX, required: false, type: 'text', autocomplete: 'organization' },
  { name: 'useCase', label: 'What will you build? (optional)', hint: 'Helps us plan which languages and fields to add next.', max: USE_CASE_MAX, required: false, type: 'textarea' },
  { name: 'keyName', label: 'Key name (optional)', hint: 'A label for this key, e.g. "mobile app". Default: default.', max: KEY_NAME_MAX, required: false, type: 'text' },
];

export function developersPage(input: DevelopersPageInput): Html {
  const errors = input.errors ?? {};
  const failed = Object.keys(errors).length > 0 || input.problem !== undefined;
  const body = html`<h1>The dictionary as a JSON API</h1>
<p>Every word on this site is also available as JSON, with the same tone-marked forms, glosses, examples,
sources and licences. Send your key in the <code>X-API-Key</code> header.</p>
<h2>What the API offers</h2>
<ul>
<li><code>GET /api/v1/words?q=…&amp;language=…</code>: search, with or without tone marks or by English gloss, paginated</li>
<li><code>GET /api/v1/words/{id or slug}</code>: one entry in full, with its source and licence</li>
<li><code>GET /api/v1/word-of-the-day</code>: a word per language per day</li>
<li><code>GET /api/v1/languages</code> and <code>GET /api/v1/stats</code>: languages with word counts, and totals</li>
<li><code>POST /api/v1/developers</code>: the sign-up below, for scripts</li>
</ul>
<p>The full reference, generated from <a href="/api/v1/openapi.json">the OpenAPI description</a>, is at <a href="/docs">/docs</a>.</p>
<h2 id="plans">Plans</h2>
<div class="scroll" role="region" aria-labelledby="plans" tabindex="0"><table>
<caption class="visually-hidden">Plans and daily request limits</caption>
<thead><tr><th scope="col">Plan</th><th scope="col">Requests per day, per endpoint</th><th scope="col">Price</th><th scope="col">How to get it</th></tr></thead>
<tbody>
${PLANS.map((p) => html`<tr><th scope="row">${p[0].toUpperCase() + p.slice(1)}</th><td>${DAILY_LIMITS[p].toLocaleString('en-GB')}</td><td>${PLAN_PRICE[p]}</td><td>${p === 'free' ? 'Sign up below: the key is issued at once.' : html`Contact the operator: ${operatorContactText(input.contact)}`}</td></tr>`)}
</tbody></table></div>
<p class="note">Limits reset at 00:00 UTC. Every response reports usage in <code>X-RateLimit-Limit</code>,
<code>X-RateLimit-Remaining</code> and <code>X-RateLimit-Used</code>. Keys created here are on the free plan.</p>
<h3>For teachers</h3>
<p>One key can serve a whole class: ask for a single key and share it with your students' project. Sign-ups are
limited to ${KEY_CREATION_LIMIT} keys per network address every ${KEY_CREATION_WINDOW_SECONDS / 60} minutes, and a school's
computers usually share one address, so a key per student would soon be refused. A free key allows
${DAILY_LIMITS.free.toLocaleString('en-GB')} requests a day on each endpoint; for more, contact the operator:
${operatorContactText(input.contact)}</p>
<h2 id="signup">Get a free API key</h2>
${input.problem ? html`<div class="alert" tabindex="-1" autofocus data-focus><h3>${input.problem.title}</h3><p>${input.problem.detail}</p></div>` : ''}
${errorSummary(errors)}
<form class="signup" action="/developers" method="post">
${FIELDS.map((f) => field(f, input.values?.[f.name] ?? '', errors[f.name]))}
<button type="submit">Create my key</button>
<p class="note">At most ${KEY_CREATION_LIMIT} keys per network address every ${KEY_CREATION_WINDOW_SECONDS / 60} minutes.</p>
</form>`;
  return layout({
    // A failed sign-up says so first, in the title a screen reader announces on arrival.
    title: failed ? 'Error: Developers' : 'Developers',
    section: 'developers',
    description: 'A free JSON API for words of African languages: plans, limits and a free key.',
    assets: input.assets,
    body,
  });
}

/**
 * The list of problems above the form, focused on arrival (autofocus; site.js where a browser ignores it on a
 * div), each linking to its field so that one activation lands in the field to correct. The form's action has
 * no #signup: the browser's scroll to a fragment, after load, takes focus off the summary, which scrolls itself
 * into view when focused.
 */
function errorSummary(errors: SignupErrors): Html | '' {
  const listed = FIELDS.filter((f) => errors[f.name]);
  if (listed.length === 0) return '';
  return html`<div class="alert error-summary" tabindex="-1" autofocus data-focus aria-labelledby="error-summary-title">
<h3 id="error-summary-title">There is a problem</h3>
<ul>${listed.map((f) => html`<li><a href="#f-${f.name}">${errors[f.name]}</a></li>`)}</ul>
</div>`;
}

function field(f: (typeof FIELDS)[number], value: string, error: string | undefined): Html {
  const id = `f-${f.name}`;
  const describedBy = [f.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const common = html`id="${id}" name="${f.name}" maxlength="${f.max}"${f.required ? html` required` : ''}${f.autocomplete ? html` autocomplete="${f.autocomplete}"` : ''}${describedBy ? html` aria-describedby="${describedBy}"` : ''}${error ? html` aria-invalid="true"` : ''}`;
  return html`<div class="field">
<label for="${id}">${f.label}</label>
${f.hint ? html`<p class="hint" id="${id}-hint">${f.hint}</p>` : ''}
${f.type === 'textarea' ? html`<textarea ${common} rows="3">${value}</textarea>` : html`<input type="${f.type}" ${common} value="${value}">`}
${error ? html`<p class="error-text" id="${id}-error"><span class="visually-hidden">Error: </span>${error}</p>` : ''}
</div>`;
}

/** `baseUrl`: this site's origin as the request named it, for the example command. */
export function keyCreatedPage(assets: AssetUrls, registration: Registration, baseUrl: string): Html {
  const body = html`<h1>Your API key</h1>
<div class="alert warn" role="alert"><p><strong>${KEY_WARNING}</strong></p></div>
<p>API key for ${registration.developer.name} (${registration.developer.email}):</p>
<code class="key" id="api-key">${registration.apiKey}</code>
<p><button type="button" class="secondary" data-copy="api-key" hidden>Copy key</button>
<span id="api-key-status" role="status" aria-live="polite"></span></p>
<h2>Using it</h2>
<p>Send the key in the <code>X-API-Key</code> header with every request:</p>
<pre><code>curl -H "X-API-Key: ${registration.apiKey}" "${baseUrl}/api/v1/words?q=omi"</code></pre>
<p>Plan: <strong>${registration.developer.plan}</strong> (${DAILY_LIMITS[registration.developer.plan].toLocaleString('en-GB')} requests a day on each endpoint).
The key starts with <code>${registration.keyPrefix}</code>, which is how it is shown in our records.</p>
<p><a href="/docs">Read the API reference</a> · <a href="/developers">Back to the developer page</a></p>`;
  return layout({ title: 'Your API key', section: 'developers', assets, body, noindex: true });
}
