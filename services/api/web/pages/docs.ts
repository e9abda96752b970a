// /docs: the API reference, rendered on the server from the OpenAPI description the API serves: every
// operation, its parameters and responses, the schemas, keys and limits. Readable without script; docs.js
// only sends the "Try it" forms.
import { DAILY_LIMITS, PLANS } from '../../../shared/plans.ts';
import { operationAnchor, operationLabel, operationSection } from '../docs/operation-view.ts';
import type { ExampleValues } from '../docs/operation-view.ts';
import { operationsOf, schemasOf } from '../docs/operations.ts';
import { namedSchemas, propertiesList, schemaAnchor } from '../docs/schema-view.ts';
import { html } from '../html.ts';
import type { Html } from '../html.ts';
import { layout } from '../layout.ts';
import type { AssetUrls } from '../layout.ts';

export const OPENAPI_PATH = '/api/v1/openapi.json';

export interface DocsPageInput {
  assets: AssetUrls;
  /** The OpenAPI description, as /api/v1/openapi.json serves it. */
  document: Readonly<Record<string, unknown>>;
  /** Parameter values that find something in this snapshot, for the examples and the try forms. */
  examples: ExampleValues;
}

export function docsPage(input: DocsPageInput): Html {
  const operations = operationsOf(input.document);
  const schemas = schemasOf(input.document);
  const named = namedSchemas(schemas);
  const info = (input.document.info ?? {}) as { title?: string; version?: string; description?: string };
  const body = html`<h1>API reference</h1>
<p>The dictionary's JSON API, version ${info.version ?? ''}, as its <a href="${OPENAPI_PATH}">OpenAPI 3.1 description</a>
states it. Each operation below can be tried from this page with your key: <a href="/developers#signup">get one free</a>.</p>
<nav aria-labelledby="operations-heading">
<h2 id="operations-heading">Operations</h2>
<ul class="ops">
${operations.map((op) => html`<li data-operation="${op.operationId}"><a href="#${operationAnchor(op)}">${operationLabel(op)}</a> ${op.summary}</li>`)}
</ul>
<p><a href="#keys">Keys, limits and errors</a> · <a href="#schemas">Schemas</a></p>
</nav>
<h2 id="keys">Keys, limits and errors</h2>
<p>${info.description ?? ''}</p>
<p>In the examples, <code>$BASE</code> (<code>BASE</code> in JavaScript and Python) stands for this site's address and <code>$API_KEY</code> (<code>API_KEY</code>) for your key; the values in them find something in the dictionary as it is served, and each sample response is what that call answers. Send your key in the <code>X-API-Key</code> header (or <code>Authorization: Bearer</code> when that header is absent).
Each key has a daily limit per endpoint, reset at 00:00 UTC:
${PLANS.map((p, i) => html`${i > 0 ? (i === PLANS.length - 1 ? ' and ' : ', ') : ''}${p} ${DAILY_LIMITS[p].toLocaleString('en-GB')}`)}.
Every metered response reports <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code> and
<code>X-RateLimit-Used</code>. Every failure has the same body, with a stable <code>code</code> to branch on:</p>
${propertiesList((schemas.find(([name]) => name === 'Error')?.[1] ?? {}) as Record<string, unknown>)}
${operations.map((op) => operationSection(op, input.examples))}
<h2 id="schemas">Schemas</h2>
${schemas.map(([name, schema]) => html`<section class="schema" aria-labelledby="${schemaAnchor(name)}">
<h3 id="${schemaAnchor(name)}">${name}</h3>
${typeof schema.description === 'string' ? html`<p>${schema.description}</p>` : ''}
${propertiesList(schema, (nested) => { const same = named(nested); return same === name ? undefined : same; })}
</section>`)}`;
  return layout({
    title: 'API reference',
    section: 'docs',
    description: 'Reference for the dictionary JSON API: search, entries, word of the day, languages, stats, sign-up.',
    assets: input.assets,
    body,
    scripts: [input.assets.docsJs],
  });
}
