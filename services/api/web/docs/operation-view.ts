// One operation of the OpenAPI description as a section of /docs: what it does, its parameters, request
// body, responses, a curl example and a form to try it with one's key (sent by docs.js; without script the
// form says so and the curl line does the same).
import { html } from '../html.ts';
import type { Html } from '../html.ts';
import { constraintsText, propertiesList, schemaAnchor, typeText } from './schema-view.ts';
import type { Schema } from './schema-view.ts';

export interface Parameter {
  name: string;
  in: string;
  required: boolean;
  description?: string;
  schema: Schema;
}

export interface Operation {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  /** True when the operation needs an API key. */
  keyed: boolean;
  parameters: readonly Parameter[];
  requestBody?: Schema;
  /** `example`: a sample body of the response, from the snapshot served. */
  responses: ReadonlyArray<{ status: string; description: string; body?: Schema; headers: readonly string[]; example?: unknown }>;
}

/** Values that make a call work as it stands, by parameter name (the example and the try form's start). */
export type ExampleValues = Readonly<Record<string, string>>;

export function operationAnchor(operation: Operation): string {
  return `op-${operation.operationId}`;
}

/** The method and path, as the index and the section heading show them. */
export function operationLabel(operation: Operation): Html {
  return html`<span class="method ${operation.method.toLowerCase()}">${operation.method}</span> <code class="op-path">${operation.path}</code>`;
}

export function operationSection(operation: Operation, examples: ExampleValues): Html {
  const id = operationAnchor(operation);
  return html`<section class="op" id="${id}" aria-labelledby="${id}-title">
<h2 id="${id}-title">${operation.summary}</h2>
<p class="op-line">${operationLabel(operation)}</p>
${operation.description ? html`<p>${operation.description}</p>` : ''}
<p class="note">${operation.keyed ? html`Needs an API key in <code>X-API-Key</code>; counts against the key's daily limit for this endpoint.` : 'No key needed.'}</p>
${operation.parameters.length > 0 ? html`<h3>Parameters</h3>
<ul class="props">${operation.parameters.map((p) => parameterItem(p))}</ul>` : ''}
${operation.requestBody ? html`<h3>Request body</h3>
<p>JSON (<code>Content-Type: application/json</code>):</p>${propertiesList(operation.requestBody)}` : ''}
<h3>Responses</h3>
<dl class="responses">${operation.responses.map((r) => html`<dt><code>${r.status}</code></dt><dd>${r.description}${r.body ? html` Body: ${typeText(r.body)}.` : ''}${r.headers.length > 0 ? html` Headers: ${r.headers.map((h, i) => html`${i > 0 ? ', ' : ''}<code>${h}</code>`)}.` : ''}</dd>`)}</dl>
<h3>Example</h3>
${codeExamples(operation, examples)}
${sampleResponse(operation)}
${operation.method === 'GET' ? tryForm(operation, examples) : html`<p>From a browser, use the <a href="/developers#signup">sign-up form</a>: it makes the same call.</p>`}
</section>`;
}

function parameterItem(p: Parameter): Html {
  const constraints = constraintsText(p.schema);
  return html`<li><code>${p.name}</code> <span class="type">${p.in}, ${typeText(p.schema)}${p.required ? ', required' : ', optional'}</span>${constraints ? html` <span class="muted">(${constraints})</span>` : ''}${p.description ? html`: ${p.description}` : ''}</li>`;
}

/** A path with its path parameters filled in and the query parameters that have an example. */
function exampleUrl(operation: Operation, examples: ExampleValues): string {
  let path = operation.path;
  const query = new URLSearchParams();
  for (const p of operation.parameters) {
    const value = examples[p.name];
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(value ?? p.name));
    else if (value !== undefined) query.set(p.name, value);
  }
  const search = query.toString();
  return `$BASE${path}${search ? `?${search}` : ''}`;
}

/** The sign-up example's body. */
const SIGNUP_BODY = '{"name": "Ada", "email": "ada@example.org"}';

function curlExample(operation: Operation, url: string): string {
  if (operation.method !== 'GET') {
    return `curl -X ${operation.method} -H "Content-Type: application/json" \\\n  -d '${SIGNUP_BODY}' "${url}"`;
  }
  return `curl -H "X-API-Key: $API_KEY" "${url}"`;
}

/** The call in JavaScript with fetch (browsers, Node.js 18 and later, Deno). */
function fetchExample(operation: Operation, url: string): string {
  const target = `\`${url.replace('$BASE', '${BASE}')}\``;
  if (operation.method !== 'GET') {
    return `const res = await fetch(${target}, {
  method: '${operation.method}',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(${SIGNUP_BODY.replace(/"(\w+)":/g, '$1:').replace(/"/g, "'")}),
});
const body = await res.json();
if (!res.ok) throw new Error(\`\${body.error.code}: \${body.error.message}\`);
console.log(body.apiKey); // shown once: store it now`;
  }
  return `const res = await fetch(${target}, { headers: { 'X-API-Key': API_KEY } });
const body = await res.json();
if (!res.ok) throw new Error(\`\${body.error.code}: \${body.error.message}\`);
console.log(body);`;
}

/** The call in Python with the standard library only (urllib). */
function pythonExample(operation: Operation, url: string): string {
  const target = `f"${url.replace('$BASE', '{BASE}')}"`;
  const head = `import json, urllib.error, urllib.request\n\n`;
  const request =
    operation.method !== 'GET'
      ? `req = urllib.request.Request(${target}, method="${operation.method}",
    data=json.dumps(${SIGNUP_BODY}).encode(), headers={"Content-Type": "application/json"})`
      : `req = urllib.request.Request(${target}, headers={"X-API-Key": API_KEY})`;
  return `${head}${request}
try:
    with urllib.request.urlopen(req) as res:
        body = json.load(res)
except urllib.error.HTTPError as e:
    error = json.load(e)["error"]
    raise SystemExit(f"{e.code} {error['code']}: {error['message']}")
print(body)`;
}

/** The call in curl, JavaScript and Python; the last two folded so that a phone shows one at a time. */
function codeExamples(operation: Operation, examples: ExampleValues): Html {
  const url = exampleUrl(operation, examples);
  return html`<p class="code-label">curl</p>
<pre><code>${curlExample(operation, url)}</code></pre>
<details class="code"><summary>JavaScript (fetch)</summary>
<pre><code>${fetchExample(operation, url)}</code></pre></details>
<details class="code"><summary>Python (standard library)</summary>
<pre><code>${pythonExample(operation, url)}</code></pre></details>`;
}

/** What a sample shows: a list's first items, and a count's first keys; the description has them all. */
const SAMPLE_ITEMS = 2;
const SAMPLE_COUNT_KEYS = 4;

/** A map of counts (by language, by part of speech): numbers, or maps of numbers, keyed by data. */
function isCounts(value: object): boolean {
  return Object.values(value).every((v) => typeof v === 'number' || (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'number')));
}

/**
 * A sample cut to be read on a phone: a list keeps its first SAMPLE_ITEMS items (one inside an item), a map of
 * counts its first SAMPLE_COUNT_KEYS keys; every field of a record stays.
 */
function shortened(value: unknown, depth = 0): unknown {
  if (Array.isArray(value)) return value.slice(0, depth === 0 || depth === 1 ? SAMPLE_ITEMS : 1).map((v) => shortened(v, depth + 1));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const kept = entries.length > SAMPLE_COUNT_KEYS && isCounts(value) ? entries.slice(0, SAMPLE_COUNT_KEYS) : entries;
  return Object.fromEntries(kept.map(([k, v]) => [k, shortened(v, depth + 1)]));
}

/** The success response's sample body, as the snapshot served answers the example above (lists shortened). */
function sampleResponse(operation: Operation): Html | '' {
  const success = operation.responses.find((r) => r.status.startsWith('2') && r.example !== undefined);
  if (success === undefined) return '';
  return html`<details class="code"><summary>Sample response (${success.status})</summary>
<p class="note">Shortened: lists show their first items and counts their first ${SAMPLE_COUNT_KEYS} keys; the call answers them all.</p>
<pre><code>${JSON.stringify(shortened(success.example), null, 2)}</code></pre></details>`;
}

function tryForm(operation: Operation, examples: ExampleValues): Html {
  const id = `try-${operation.operationId}`;
  return html`<details class="try">
<summary>Try it</summary>
<form class="try" data-path="${operation.path}" action="#${operationAnchor(operation)}">
<p class="note" data-needs-script>Sending a request from this page needs JavaScript; the curl command above does the same.</p>
<fieldset disabled>
<legend class="visually-hidden">${operation.summary}: request</legend>
${operation.keyed ? html`<div class="field"><label for="${id}-key">Your API key</label>
<input id="${id}-key" name="apiKey" type="text" required autocomplete="off" autocapitalize="none" spellcheck="false" placeholder="svc_live_…" aria-describedby="${id}-key-hint">
<p class="hint" id="${id}-key-hint">Kept in this page only, sent in <code>X-API-Key</code>. <a href="/developers#signup">Get a free key</a>.</p></div>` : ''}
${operation.parameters.map((p) => tryField(id, p, p.required ? examples[p.name] : undefined))}
<button type="submit">Send request</button>
</fieldset>
<p class="try-status" role="status"></p>
<pre class="response" tabindex="0" role="region" aria-label="${operation.summary}: response" hidden><code></code></pre>
</form>
</details>`;
}

/** A parameter's field; a required one starts with a value that works, so a call can be sent as it stands. */
function tryField(formId: string, p: Parameter, example: string | undefined): Html {
  const id = `${formId}-${p.name}`;
  const label = html`<label for="${id}">${p.name} <span class="muted">(${p.in}${p.required ? ', required' : ''})</span></label>`;
  const common = html`id="${id}" name="${p.name}" data-in="${p.in}"${p.required ? html` required` : ''}`;
  if (Array.isArray(p.schema.enum)) {
    return html`<div class="field">${label}
<select ${common}><option value="">(not set)</option>${(p.schema.enum as unknown[]).map((v) => html`<option>${String(v)}</option>`)}</select></div>`;
  }
  const numeric = p.schema.type === 'integer';
  const bounds = html`${typeof p.schema.minimum === 'number' ? html` min="${p.schema.minimum}"` : ''}${typeof p.schema.maximum === 'number' ? html` max="${p.schema.maximum}"` : ''}${typeof p.schema.maxLength === 'number' ? html` maxlength="${p.schema.maxLength}"` : ''}`;
  const placeholder = p.schema.default !== undefined ? html` placeholder="${String(p.schema.default)}"` : '';
  return html`<div class="field">${label}
<input ${common} type="${numeric ? 'number' : 'text'}"${numeric ? html` inputmode="numeric"` : html` autocapitalize="none" spellcheck="false"`}${bounds}${placeholder} value="${example ?? ''}"></div>`;
}
