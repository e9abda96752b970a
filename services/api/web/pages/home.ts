// The home page: search box, the word of the day in each active language, an introduction, developer links.
import { DAILY_LIMITS } from '../../../shared/plans.ts';
import type { Entry, Language } from '../../../shared/schemas.ts';
import { languageLabel, langOf, partOfSpeechLabel, searchForm } from '../components.ts';
import { html } from '../html.ts';
import type { Html } from '../html.ts';
import { layout } from '../layout.ts';
import type { AssetUrls } from '../layout.ts';
import { languagePath } from './language.ts';

export interface HomeInput {
  assets: AssetUrls;
  languages: readonly Language[];
  /** YYYY-MM-DD (UTC). */
  date: string;
  wordsOfTheDay: ReadonlyArray<{ language: Language; entry: Entry | undefined }>;
}

export function homePage(input: HomeInput): Html {
  const active = input.languages.filter((l) => l.status === 'active');
  const preparing = input.languages.filter((l) => l.status !== 'active');
  const body = html`<h1>A dictionary of African languages, open to everyone</h1>
<p>Look up ${active.map((l, i) => html`${i > 0 ? (i === active.length - 1 ? ' and ' : ', ') : ''}${languageLabel(l)}`)}
words with their tone marks, meanings in English and example sentences. Every entry says which openly licensed
corpus it comes from.</p>
${searchForm({ languages: input.languages, idPrefix: 'home' })}
<h2>Word of the day</h2>
<p class="note">For <time datetime="${input.date}">${formatDate(input.date)}</time> (a new word every day at 00:00 UTC).</p>
<ul class="cards">
${input.wordsOfTheDay.map(({ language, entry }) => wordOfTheDayCard(language, entry))}
</ul>
<h2>Languages</h2>
<ul>
${active.map((l) => html`<li><a href="${languagePath(l.slug)}">${languageLabel(l)}</a>: ${l.wordCount.toLocaleString('en-GB')} words</li>`)}
${preparing.map((l) => html`<li><a href="${languagePath(l.slug)}">${languageLabel(l)}</a>: corpus being prepared</li>`)}
</ul>
<h2>For developers</h2>
<p>The same words are available as a JSON API. A free key gives ${DAILY_LIMITS.free.toLocaleString('en-GB')} requests
a day on each endpoint.</p>
<ul>
<li><a href="/developers">Get a free API key</a> and see the plans</li>
<li><a href="/docs">Read the API reference</a></li>
<li><a href="/about">Where the data comes from</a>, its licences and how spelling is normalised</li>
</ul>`;
  return layout({
    title: 'Home',
    section: 'home',
    description: `Search ${active.map((l) => l.name).join(', ')} words with tone marks, English meanings and examples; free JSON API.`,
    assets: input.assets,
    body,
  });
}

function wordOfTheDayCard(language: Language, entry: Entry | undefined): Html {
  if (!entry) {
    return html`<li class="card"><h3>${language.name}</h3><p class="muted">No word of the day today.</p></li>`;
  }
  const lang = langOf(entry.language);
  return html`<li class="card">
<h3>${language.name}</h3>
<p class="word"><a href="/words/${encodeURIComponent(entry.slug)}" lang="${lang}">${entry.exactForm}</a></p>
<p class="meta"><span>${partOfSpeechLabel(entry.partOfSpeech)}</span>${entry.pronunciation ? html`<span>/${entry.pronunciation}/</span>` : ''}</p>
${entry.glosses.length > 0 ? html`<p>${entry.glosses.slice(0, 3).join('; ')}</p>` : ''}
</li>`;
}

export function formatDate(date: string): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime())) return date;
  return parsed.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}
