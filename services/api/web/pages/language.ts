// One language: its names, standing and word count, today's word, how to browse it, and the corpora behind it.
import type { Entry, Language } from '../../../shared/schemas.ts';
import type { CorpusSource } from '../../../../snapshot/reader/snapshot.ts';
import { languageLabel, languageLabelText, langOf, partOfSpeechLabel, searchForm } from '../components.ts';
import { html, safeUrl } from '../html.ts';
import type { Html } from '../html.ts';
import { layout } from '../layout.ts';
import type { AssetUrls } from '../layout.ts';
import { entryPath } from './entry.ts';

export interface LanguagePageInput {
  assets: AssetUrls;
  language: Language;
  languages: readonly Language[];
  /** Today's word, for an active language. */
  wordOfTheDay: Entry | undefined;
  /** The corpora of this language (every role), from the snapshot's source list. */
  sources: readonly CorpusSource[];
}

export function languagePath(slug: string): string {
  return `/languages/${encodeURIComponent(slug)}`;
}

const ROLE_NAMES: Readonly<Record<string, string>> = {
  lexicon: 'dictionary entries',
  examples: 'example sentences',
  frequency: 'word frequencies',
  pronunciation: 'pronunciations (IPA)',
  forms: 'inflected forms',
};

export function languagePage(input: LanguagePageInput): Html {
  const { language } = input;
  const lang = langOf(language.code);
  const active = language.status === 'active';
  const body = html`<h1>${languageLabel(language)}</h1>
<p class="meta"><span>Code <code>${language.code}</code></span><span>${active ? html`${language.wordCount.toLocaleString('en-GB')} words` : 'corpus being prepared'}</span></p>
${active
    ? html`${searchForm({ languages: input.languages, language: language.code, idPrefix: 'lang' })}
<p><a href="/search?language=${encodeURIComponent(language.code)}">Browse every ${language.name} word from A to Z</a></p>
${input.wordOfTheDay ? html`<h2>Word of the day</h2>
<p class="word"><a href="${entryPath(input.wordOfTheDay.slug)}" lang="${lang}">${input.wordOfTheDay.exactForm}</a>
<span class="muted">${partOfSpeechLabel(input.wordOfTheDay.partOfSpeech)}</span></p>
${input.wordOfTheDay.glosses.length > 0 ? html`<p>${input.wordOfTheDay.glosses.slice(0, 3).join('; ')}</p>` : ''}` : ''}`
    : html`<p>This language's corpus is imported at every build but not served yet: a language is served once the
dictionary holds at least 1,000 of its words with an English meaning.</p>`}
<h2>Sources</h2>
${input.sources.length === 0 ? html`<p>No corpus for this language yet.</p>` : html`<ul>${input.sources.map((s) => source(s))}</ul>`}
<p><a href="/about">All sources and licences</a></p>`;
  return layout({
    title: languageLabelText(language),
    section: 'none',
    description: `${language.name} words${active ? `: ${language.wordCount.toLocaleString('en-GB')} entries` : ''}, with English meanings and their sources.`,
    assets: input.assets,
    body,
    canonicalPath: languagePath(language.slug),
  });
}

function source(s: CorpusSource): Html {
  const url = safeUrl(s.url);
  const licenceUrl = safeUrl(s.licence.url);
  return html`<li>${url ? html`<a href="${url}" rel="external">${s.name}</a>` : s.name}: ${ROLE_NAMES[s.role] ?? s.role},
${licenceUrl ? html`<a href="${licenceUrl}" rel="license external">${s.licence.name}</a>` : s.licence.name}.
<span class="muted">${s.attribution}</span></li>`;
}
