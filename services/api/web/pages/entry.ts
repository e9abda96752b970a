// One entry in full: tone-marked headword, senses, examples, variants, related forms, source and licence.
import type { Entry } from '../../../shared/schemas.ts';
import { langOf, partOfSpeechLabel } from '../components.ts';
import type { OperatorContact } from '../../operator-contact.ts';
import type { HeadwordSpelling } from '../headword-spelling.ts';
import type { Homograph } from '../homographs.ts';
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
  /** The entries spelled exactly as this one, numbered (this one among them); empty when it has none. */
  homographs?: readonly Homograph[];
  /** Where a mistake in an entry is reported (OPERATOR_CONTACT); undefined when none is published. */
  contact?: OperatorContact;
}

export function entryPath(slug: string): string {
  return `/words/${encodeURIComponent(slug)}`;
}

export function entryPage({ assets, entry, spelling, homographs = [], contact }: EntryPageInput): Html {
  const number = homographs.find((h) => h.id === entry.id)?.number;
  const lang = langOf(entry.language);
  // The words the source gives as this entry's own: where a gloss quotes one, it is marked with the language.
  const forms = [entry.exactForm, entry.headword, ...entry.variants.map((v) => v.form), ...entry.derived.map((r) => r.form), ...entry.related.map((r) => r.form), ...entry.stems];
  const quoted = (text: string) => markQuotedForms(text, forms, lang);
  const examples = entry.examples.slice(0, MAX_EXAMPLES_SHOWN);
  const related = [...entry.derived, ...entry.related];
  const body = html`<article>
<p class="meta"><a href="/search?language=${encodeURIComponent(entry.language)}">${entry.languageName}</a></p>
<h1 class="headword" lang="${lang}">${entry.exactForm}${number === undefined ? '' : html`<sup class="homograph" lang="en"><span class="visually-hidden"> homograph </span>${number}</sup>`}</h1>
<p class="meta">
<span class="tag">${partOfSpeechLabel(entry.partOfSpeech)}</span>
${entry.pronunciation ? html`<span>Pronunciation: <span lang="${lang}">/${entry.pronunciation}/</span></span>` : ''}
${number !== undefined ? html`<span>Homograph ${number} of ${homographs.length}</span>` : ''}
${entry.isCommon ? html`<span class="tag">common word</span>` : ''}
${entry.frequencyRank !== null ? html`<span>Frequency rank ${entry.frequencyRank.toLocaleString('en-GB')}</span>` : ''}
${entry.isVerified ? html`<span class="tag">verified source</span>` : ''}
</p>
${homographs.length > 1 ? otherHomographs(entry, homographs, lang) : ''}
${entry.dialect ? html`<p class="note dialect"><strong>${entry.dialect.name} dialect.</strong> ${entry.dialect.note}</p>` : ''}
${spelling ? html`<p class="note spelling"><strong>${spelling.label}.</strong> ${spelling.description}</p>` : ''}
${entry.headword !== entry.exactForm ? html`<p>Also listed as <span lang="${lang}">${entry.headword}</span>.</p>` : ''}
${entry.glosses.length > 0 ? html`<p><strong>In English:</strong> ${entry.glosses.map((g, i) => html`${i > 0 ? '; ' : ''}${quoted(g)}`)}</p>` : ''}
${entry.senses.length > 0 ? html`<h2>Meanings</h2>
<ol class="senses">${entry.senses.map((s) => html`<li value="${s.number}">${quoted(s.definition)}${s.source && s.source.id !== entry.source.id ? html` <span class="muted">(${s.source.name}${s.licence ? `, ${s.licence.name}` : ''})</span>` : ''}</li>`)}</ol>` : ''}
${examples.length > 0 ? html`<h2>Examples</h2>
<ul class="examples">${examples.map((e) => html`<li>
<p lang="${lang}">${e.text}</p>
${e.translation ? html`<p class="tr">${e.translation}</p>` : ''}
${e.source.id !== entry.source.id || e.reference ? html`<p class="note">${e.reference ? html`${e.reference} · ` : ''}${e.source.id !== entry.source.id ? html`${e.source.attribution}` : ''}</p>` : ''}
</li>`)}</ul>
${entry.examples.length > examples.length ? html`<p class="note">${entry.examples.length - examples.length} more examples are available through the <a href="/docs">API</a>.</p>` : ''}` : ''}
${entry.pronunciations.length > 0 ? html`<h2>Pronunciation</h2>
<ul class="pronunciations">${entry.pronunciations.map((p) => html`<li><span lang="${lang}-fonipa">/${p.ipa}/</span> <span class="muted">(${p.source.name}, ${p.licence.name})</span></li>`)}</ul>` : ''}
${inflections(entry, lang)}
${entry.forms.length > 0 ? html`<h2>Other forms</h2>
<ul class="inline">${entry.forms.map((f) => html`<li><span lang="${lang}">${f.form}</span> <span class="muted">(${FORM_LABELS[f.kind]})</span></li>`)}</ul>` : ''}
${entry.variants.length > 0 ? html`<h2>Variants</h2>
<ul class="inline">${entry.variants.map((v) => html`<li><span lang="${lang}">${v.form}</span>${v.kind === 'alternative-spelling' ? ' (alternative spelling)' : v.kind === 'standard-spelling' ? ' (Standard Igbo spelling)' : ''}${v.note ? html`<p class="note">${v.note}</p>` : ''}</li>`)}</ul>` : ''}
${related.length > 0 ? html`<h2>Related forms</h2>
<ul class="inline">${related.map((r) => html`<li>${relatedForm(r, lang)} <span class="muted">(${relationLabel(r.relation)})</span></li>`)}</ul>` : ''}
${entry.stems.length > 0 ? html`<h2>Stems</h2>
<ul class="inline">${entry.stems.map((s) => html`<li lang="${lang}">${s}</li>`)}</ul>` : ''}
<section class="provenance" aria-labelledby="source-heading">
<h2 id="source-heading">Source and licence</h2>
${provenance(entry.source, entry.licence)}
${exampleSources(entry)}
<p>As JSON: <code>GET /api/v1/words/${entry.slug}</code> (<a href="/developers">API key</a>)</p>
</section>
${shareAndReport(entry, number, contact)}
</article>`;
  return layout({
    title: `${entry.exactForm}${number === undefined ? '' : ` ${number}`} (${entry.languageName})`,
    section: 'none',
    description: `${entry.exactForm}: ${entry.languageName} ${partOfSpeechLabel(entry.partOfSpeech)}${entry.glosses.length ? `, ${entry.glosses.slice(0, 3).join('; ')}` : ''}`,
    assets,
    body,
    canonicalPath: entryPath(entry.slug),
  });
}

/** The other entries spelled alike, each by its number and part of speech. */
function otherHomographs(entry: Entry, homographs: readonly Homograph[], lang: string): Html {
  return html`<nav class="homographs" aria-label="Other words spelled ${entry.exactForm}"><p>Other words spelled <span lang="${lang}">${entry.exactForm}</span>:
${homographs.filter((h) => h.id !== entry.id).map((h, i) => html`${i > 0 ? ', ' : ''}<a href="${entryPath(h.slug)}"><span lang="${lang}">${entry.exactForm}</span> ${h.number}</a> (${partOfSpeechLabel(h.partOfSpeech)})`)}</p></nav>`;
}

/**
 * The entry's full address to copy or share (the script writes the origin in and reveals the copy button;
 * without it the path shows), and where to report a mistake: the operator's contact with the entry named, or
 * why there is none.
 */
function shareAndReport(entry: Entry, number: number | undefined, contact: OperatorContact | undefined): Html {
  const path = entryPath(entry.slug);
  const named = `${entry.exactForm}${number === undefined ? '' : ` ${number}`} (${entry.languageName}, ${partOfSpeechLabel(entry.partOfSpeech)}, entry ${entry.id})`;
  return html`<section class="share" aria-labelledby="share-heading">
<h2 id="share-heading">Share or correct</h2>
<p>Link to this entry: <a id="entry-link" href="${path}" data-full-link="${path}">${path}</a>
<button type="button" data-copy="entry-link" hidden>Copy link</button> <span id="entry-link-status" role="status"></span></p>
${contact === undefined
    ? html`<p class="report">Found a mistake? This service has not published a contact address yet; the entry comes from ${entry.source.name}, whose maintainers can correct it at the source.</p>`
    : html`<p class="report"><a href="${reportHref(contact, named, path)}">Report a mistake in this entry</a> (to ${contact.text}; name <em>${named}</em> if the message does not).</p>`}
</section>`;
}

/** A mailto: with the entry named in the subject and its address in the body; a URL contact as it is. */
function reportHref(contact: OperatorContact, named: string, path: string): string {
  if (!contact.href.startsWith('mailto:')) return contact.href;
  const subject = encodeURIComponent(`Mistake in ${named}`);
  const body = encodeURIComponent(`Entry: ${named}\nAddress: ${path}\n\nWhat is wrong, and what it should say:\n`);
  return `${contact.href}?subject=${subject}&body=${body}`;
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
  const parts: { source: Source; licence: Licence }[] = [...entry.examples, ...entry.pronunciations, ...(entry.inflections ?? [])];
  for (const s of entry.senses) if (s.source && s.licence) parts.push({ source: s.source, licence: s.licence });
  for (const e of parts) if (e.source.id !== entry.source.id && !others.has(e.source.id)) others.set(e.source.id, e);
  if (others.size === 0) return '';
  return html`<h3>From other sources</h3>${[...others.values()].map((e) => provenance(e.source, e.licence))}`;
}

/** The first forms of each inflection table, with their features, the table's size and where it comes from. */
function inflections(entry: Entry, lang: string): Html | '' {
  const tables = entry.inflections ?? [];
  if (tables.length === 0) return '';
  return html`<h2>Inflected forms</h2>${tables.map((t) => html`<ul class="inline">${t.forms.map((f) => html`<li><span lang="${lang}">${f.form}</span> <span class="muted">(${f.features})</span></li>`)}</ul>
<p class="note">${t.total > t.forms.length ? `${t.forms.length} of ${t.total.toLocaleString('en-GB')} forms; ` : ''}a search for any of them finds this entry. ${t.source.name}, ${t.licence.name}.</p>`)}`;
}
