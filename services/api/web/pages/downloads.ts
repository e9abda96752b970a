// /downloads: every open-data file of this edition, what its licences ask of a re-user, the attribution to copy.
import type { DownloadFile, DownloadIndex, IncludedSource } from '../../../../snapshot/format/downloads.ts';
import { DOWNLOADS_INDEX_NAME, DOWNLOADS_PATH } from '../../../../snapshot/format/downloads.ts';
import { html, safeUrl } from '../html.ts';
import type { Html } from '../html.ts';
import { layout } from '../layout.ts';
import type { AssetUrls } from '../layout.ts';
import { licenceTerms } from '../licences.ts';

export interface DownloadsPageInput {
  assets: AssetUrls;
  /** undefined: this edition has no downloads to serve. */
  index: DownloadIndex | undefined;
}

const ROLE_TEXT: Readonly<Record<string, string>> = {
  lexicon: 'entries',
  examples: 'example sentences',
  frequency: 'frequency ranks (which words are common)',
};

export function downloadsPage(input: DownloadsPageInput): Html {
  const index = input.index;
  const body = html`<h1>Download the data</h1>
<p>Every entry of this dictionary can be downloaded, to use offline and to build on. There is one file per
language and source: gzipped <a href="https://jsonlines.org/" rel="external">JSON Lines</a>, one entry per line,
exactly as the API's <code>GET /api/v1/words/{id}</code> returns it, each naming its source and licence; and beside
it the same entries as a CSV table that a spreadsheet opens. No key is needed.</p>
${index === undefined
    ? html`<p><strong>This edition of the dictionary has no downloads.</strong> They come with the next one.</p>`
    : html`<p>Edition <code>${index.version}</code>. The same list for programs, with sizes and SHA-256 checksums:
<a href="${DOWNLOADS_PATH}/${DOWNLOADS_INDEX_NAME}">${DOWNLOADS_PATH}/${DOWNLOADS_INDEX_NAME}</a>. A file's name
carries the edition, so a new edition comes as new files.</p>
<h2>Files</h2>
<p>By language; open one to see its files.</p>
${byLanguage(index.files).map(([languageName, files]) => html`<details class="fold">
<summary>${languageName} <span class="muted">(${files.length} ${files.length === 1 ? 'file' : 'files'}, ${files.reduce((n, { file }) => n + file.entries, 0).toLocaleString('en-GB')} entries)</span></summary>
${files.map(({ file, i }) => fileCard(file, i))}
</details>`)}
<h2>What the licences ask of you</h2>
<p>Each source chose its own licence. When you re-use a file, the licence of its source applies, and the licences
of the sources its entries also draw on.</p>
${distinctLicences(index).map(licenceSection)}`}`;
  return layout({
    title: 'Download the data',
    section: 'downloads',
    description: 'Download every dictionary entry as gzipped JSON Lines, per language and source, with its licence.',
    assets: input.assets,
    body,
  });
}

function fileCard(f: DownloadFile, i: number): Html {
  const attributionId = `attribution-${i + 1}`;
  return html`<section class="card" aria-labelledby="file-${i + 1}">
<h3 id="file-${i + 1}">${f.languageName}: ${f.sourceName}</h3>
<p><a href="${f.url}" download><code>${f.name}</code></a> (${formatBytes(f.bytes)}, ${f.entries.toLocaleString('en-GB')} entries)</p>
<p>For a spreadsheet: <a href="${f.csv.url}" download><code>${f.csv.name}</code></a> (CSV, UTF-8, ${formatBytes(f.csv.bytes)}; headword,
part of speech, pronunciation, English meanings, how common, and the entry's page; the same licence and attribution)</p>
<dl>
<dt>Licence</dt><dd>${licenceLink(f.licenceName, f.licenceUrl)} (<code>${f.licence}</code>): ${licenceTerms(f.licence).short}</dd>
${f.includes.length > 0
    ? html`<dt>Also contains</dt><dd><ul>${f.includes.map((s) => html`<li>${ROLE_TEXT[s.role] ?? s.role} from ${s.sourceName},
${licenceLink(s.licenceName, s.licenceUrl)} (<code>${s.licence}</code>): ${licenceTerms(s.licence).short}</li>`)}</ul></dd>`
    : ''}
<dt>Attribution</dt><dd><code class="key" id="${attributionId}">${attributionLine(f)}</code>
<button type="button" class="secondary" data-copy="${attributionId}" hidden>Copy attribution</button>
<span id="${attributionId}-status" role="status" aria-live="polite"></span></dd>
<dt>SHA-256</dt><dd><code>${f.sha256}</code></dd>
</dl>
</section>`;
}

/** The files grouped by language, in the index's order, each with its place in the index (for its ids). */
function byLanguage(files: readonly DownloadFile[]): Array<[string, Array<{ file: DownloadFile; i: number }>]> {
  const groups = new Map<string, Array<{ file: DownloadFile; i: number }>>();
  files.forEach((file, i) => {
    let group = groups.get(file.languageName);
    if (group === undefined) groups.set(file.languageName, (group = []));
    group.push({ file, i });
  });
  return [...groups];
}

/** The line a re-user copies: the file's own credit, then that of every source its entries also draw on. */
export function attributionLine(f: DownloadFile): string {
  return [f.attribution, ...f.includes.map((s) => s.attribution)].join(' ');
}

function licenceSection(l: { licence: string; licenceName: string; licenceUrl: string }): Html {
  return html`<h3>${l.licenceName} (<code>${l.licence}</code>)</h3>
<p>${licenceTerms(l.licence).detail} ${licenceLink('Read the licence', l.licenceUrl)}.</p>`;
}

function distinctLicences(index: DownloadIndex): Array<Pick<IncludedSource, 'licence' | 'licenceName' | 'licenceUrl'>> {
  const found = new Map<string, Pick<IncludedSource, 'licence' | 'licenceName' | 'licenceUrl'>>();
  for (const f of index.files) {
    for (const l of [f, ...f.includes]) if (!found.has(l.licence)) found.set(l.licence, { licence: l.licence, licenceName: l.licenceName, licenceUrl: l.licenceUrl });
  }
  return [...found.values()];
}

function licenceLink(text: string, url: string): Html {
  const href = safeUrl(url);
  return href ? html`<a href="${href}" rel="license external">${text}</a>` : html`${text}`;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1e6) return `${(bytes / 1e6).toLocaleString('en-GB', { maximumFractionDigits: 1 })} MB`;
  return `${Math.max(1, Math.round(bytes / 1e3)).toLocaleString('en-GB')} kB`;
}
