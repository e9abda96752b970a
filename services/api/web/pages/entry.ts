// One entry in full: tone-marked headword, senses, examples, variants, related forms, source and licence.
import type { Entry } from '../../../shared/schemas.ts';
import { langOf, partOfSpeechLabel } from '../components.ts';
import type { HeadwordSpelling } from '../headword-spelling.ts';
import { html, safeUrl } from '../html.ts';
import type { Html } from '../html.ts';
import { layout } from '../layout.ts';
import type { AssetUrls } from '../layout.ts';
import { markQuotedForms } from '../quoted-forms.ts';

/** Keeps the page small on a slow network (budget: 50 KB of HTML and CSS); the API serves them all. */
export const MAX_EXAMPLES_SHOWN = 20;

type Source = Entry['source'];
type Licence = Entry['licence'];
type RelatedForm = Entry['derived'][number];

export interface EntryPageInput {
  assets: AssetUrls;
  entry: Entry;
  /** Set when the entry's source writes headwords in a spelling of its own (e.g. Williamson's Onitsha). */
  spelling?: HeadwordSpelling;
}

export function entryPath(slug: string): string {
  return `/words/${encodeURIComponent(slug)}`;
}

export function entryPage({ assets, entry, spelling }: EntryPageInput): Html {
  const lang = langOf(entry.language);
  // The words the source gives as this entry's own: where a gloss quotes one, it is marked with the language.
  const forms = [entry.exactForm, entry.headword, ...entry.variants.map((v) => v.form), ...entry.derived.map((r) => r.form), ...entry.related.map((r) => r.form), ...entry.stems];
  const quoted = (text: string) => markQuotedForms(text, forms, lang);
  const examples = entry.examples.slice(0, MAX_EXAMPLES_SHOWN);
  const related = [...entry.derived, ...entry.related];
  const body = html`<article>
<p class="meta"><a href="/search?language=${encodeURIComponent(entry.language)}">${entry.languageName}</a></p>
<h1 class="headword" lang="${lang}">${entry.exactForm}</h1>
<p class="meta">
<span class="tag">${partOfSpeechLabel(entry.partOfSpeech)}</span>
${entry.pronunciation ? html`<span>Pronunciation: <span lang="${lang}">/${entry.pronunciation}/</span></span>` : ''}
${entry.etymologyNumber !== null ? html`<span>Homograph ${entry.etymologyNumber}</span>` : ''}
${entry.isCommon ? html`<span class="tag">common word</span>` : ''}
${entry.frequencyRank !== null ? html`<span>Frequency rank ${entry.frequencyRank.toLocaleString('en-GB')}</span>` : ''}
${entry.isVerified ? html`<span class="tag">verified source</span>` : ''}
</p>
${entry.dialect ? html`<p class="note dialect"><strong>${entry.dialect.name} dialect.</strong> ${entry.dialect.note}</p>` : ''}
${spelling ? html`<p class="note spelling"><strong>${spelling.label}.</strong> ${spelling.description}</p>` : ''}
${entry.headword !== entry.exactForm ? html`<p>Also listed as <span lang="${lang}">${entry.headword}</span>.</p>` : ''}
${entry.glosses.length > 0 ? html`<p><strong>In English:</strong> ${entry.glosses.map((g, i) => html`${i > 0 ? '; ' : ''}${quoted(g)}`)}</p>` : ''}
${entry.senses.length > 0 ? html`<h2>Meanings</h2>
<ol class="senses">${entry.senses.map((s) => html`<li value="${s.number}">${quoted(s.definition)}</li>`)}</ol>` : ''}
${examples.length > 0 ? html`<h2>Examples</h2>
<ul class="examples">${examples.map((e) => html`<li>
<p lang="${lang}">${e.text}</p>
${e.translation ? html`<p class="tr">${e.translation}</p>` : ''}
${e.source.id !== entry.source.id || e.reference ? html`<p class="note">${e.reference ? html`${e.reference} · ` : ''}${e.source.id !== entry.source.id ? html`${e.source.attribution}` : ''}</p>` : ''}
</li>`)}</ul>
${entry.examples.length > examples.length ? html`<p class="note">${entry.examples.length - examples.length} more examples are available through the <a href="/docs">API</a>.</p>` : ''}` : ''}
${entry.pronunciations.length > 0 ? html`<h2>Pronunciation</h2>
<ul class="pronunciations">${entry.pronunciations.map((p) => html`<li><span lang="${lang}-fonipa">/${p.ipa}/</span> <span class="muted">(${p.source.name}, ${p.licence.name})</span></li>`)}</ul>` : ''}
${entry.forms.length > 0 ? html`<h2>Other forms</h2>
<ul>${entry.forms.map((f) => html`<li><span lang="${lang}">${f.form}</span> <span class="muted">(${FORM_LABELS[f.kind]})</span></li>`)}</ul>` : ''}
${entry.variants.length > 0 ? html`<h2>Variants</h2>
<ul>${entry.variants.map((v) => html`<li><span lang="${lang}">${v.form}</span>${v.kind === 'alternative-spelling' ? ' (alternative spelling)' : v.kind === 'standard-spelling' ? ' (Standard Igbo spelling)' : ''}${v.note ? html`<p class="note">${v.note}</p>` : ''}</li>`)}</ul>` : ''}
${related.length > 0 ? html`<h2>Related forms</h2>
<ul>${related.map((r) => html`<li>${relatedForm(r, lang)} <span class="muted">(${relationLabel(r.relation)})</span></li>`)}</ul>` : ''}
${entry.stems.length > 0 ? html`<h2>Stems</h2>
<ul>${entry.stems.map((s) => html`<li lang="${lang}">${s}</li>`)}</ul>` : ''}
<section class="provenance" aria-labelledby="source-heading">
<h2 id="source-heading">Source and licence</h2>
${provenance(entry.source, entry.licence)}
${exampleSources(entry)}
<p>Link to this entry: <a href="${entryPath(entry.slug)}">${entryPath(entry.slug)}</a> · as JSON:
<code>GET /api/v1/words/${entry.slug}</code> (<a href="/developers">API key</a>)</p>
</section>
</article>`;
  return layout({
    title: `${entry.exactForm} (${entry.languageName})`,
    section: 'none',
    description: `${entry.exactForm}: ${entry.languageName} ${partOfSpeechLabel(entry.partOfSpeech)}${entry.glosses.length ? `, ${entry.glosses.slice(0, 3).join('; ')}` : ''}`,
    assets,
    body,
    canonicalPath: entryPath(entry.slug),
  });
}

function relatedForm(r: RelatedForm, lang: string): Html {
  return r.slug
    ? html`<a href="${entryPath(r.slug)}" lang="${lang}">${r.form}</a>`
    : html`<span lang="${lang}">${r.form}</span>`;
}

function relationLabel(relation: RelatedForm['relation']): string {
  return relation === 'see-also' ? 'see also' : relation === 'component' ? 'component' : 'derived form';
}

export function provenance(source: Source, licence: Licence): Html {
  const sourceUrl = safeUrl(source.url);
  const licenceUrl = safeUrl(licence.url);
  return html`<dl>
<dt>Source</dt><dd>${sourceUrl ? html`<a href="${sourceUrl}" rel="external">${source.name}</a>` : source.name}</dd>
<dt>Licence</dt><dd>${licenceUrl ? html`<a href="${licenceUrl}" rel="license external">${licence.name}</a>` : licence.name} (<code>${licence.spdx}</code>)</dd>
<dt>Attribution</dt><dd>${source.attribution}</dd>
</dl>`;
}

/** How each kind of other form reads on the page (FormSchema). */
const FORM_LABELS: Readonly<Record<Entry['forms'][number]['kind'], string>> = {
  'tone-marked': 'with tone marks',
  spelling: 'spelling',
  romanisation: 'romanisation',
  'other-script': 'in another script',
  plural: 'plural',
  form: 'form',
  stem: 'stem',
  'class-form': 'noun-class form',
};

/**
 * Examples and pronunciations may come from other corpora (the Yoruba treebank, NTREX-128, WikiPron, MFA): each
 * of those is credited once.
 */
function exampleSources(entry: Entry): Html | '' {
  const others = new Map<string, { source: Source; licence: Licence }>();
  for (const e of [...entry.examples, ...entry.pronunciations]) if (e.source.id !== entry.source.id && !others.has(e.source.id)) others.set(e.source.id, e);
  if (others.size === 0) return '';
  return html`<h3>Examples and pronunciations from other sources</h3>${[...others.values()].map((e) => provenance(e.source, e.licence))}`;
}
