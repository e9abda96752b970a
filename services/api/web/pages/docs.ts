// /docs: the API reference, rendered in the browser by Swagger UI (served from our origin) from the OpenAPI
// description; without JavaScript, a plain list of the operations and a link to the description.
import { METERED_ENDPOINTS } from '../../../shared/plans.ts';
import { html } from '../html.ts';
import type { Html } from '../html.ts';
import { layout } from '../layout.ts';
import type { AssetUrls } from '../layout.ts';

export const OPENAPI_PATH = '/api/v1/openapi.json';

export interface DocsPageInput {
  assets: AssetUrls;
  /** Version of the renderer, shown with its licence. */
  rendererVersion: string;
}

export function docsPage(input: DocsPageInput): Html {
  const body = html`<h1>API reference</h1>
<p>Generated from the <a href="${OPENAPI_PATH}">OpenAPI 3.1 description</a>. Every operation except sign-up needs a key
in the <code>X-API-Key</code> header: <a href="/developers">get one free</a>.</p>
<div id="docs-fallback">
<h2>Operations</h2>
<ul>
${METERED_ENDPOINTS.map((e) => html`<li><code>${e}</code></li>`)}
<li><code>POST /api/v1/developers</code></li>
</ul>
<p class="note">The interactive reference needs JavaScript; the <a href="${OPENAPI_PATH}">OpenAPI description</a> has everything it shows.</p>
</div>
<div id="swagger-ui" data-spec-url="${OPENAPI_PATH}"></div>
<p class="note">Rendered by <a href="https://github.com/swagger-api/swagger-ui" rel="external">Swagger UI</a> ${input.rendererVersion},
© SmartBear Software, <a href="/assets/swagger-ui/LICENSE">Apache License 2.0</a> (<a href="/assets/swagger-ui/NOTICE">notice</a>).</p>`;
  return layout({
    title: 'API reference',
    section: 'docs',
    description: 'Reference for the dictionary JSON API: search, entries, word of the day, languages, stats, sign-up.',
    assets: input.assets,
    body,
    styles: [input.assets.swaggerCss],
    scripts: [input.assets.swaggerJs, input.assets.docsJs],
  });
}
