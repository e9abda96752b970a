// Pieces several pages share: the search form, language attributes, part-of-speech and match-type labels.
import type { Entry, Language } from '../../shared/schemas.ts';
import type { MatchType, SearchScope } from '../../shared/vocabulary.ts';
import type { OperatorContact } from '../operator-contact.ts';
import { html } from './html.ts';
import type { Html } from './html.ts';

type FormKind = Entry['forms'][number]['kind'];

/** Search text longer than this is refused (the API's bound: a query's work must stay bounded). */
export const MAX_QUERY_CHARS = 200;

/**
 * The lang attribute for text in a dictionary language. Codes come from the snapshot's language table
 * (ig, yo, ...): BCP 47 primary subtags, so they are used as they are once their shape is checked.
 */
export function langOf(code: string): string {
  return /^[a-z]{2,3}$/.test(code) ? code : 'und';
}

/**
 * A language as the pages name it: its own name, marked with its language, then the English one in brackets,
 * once only where the two are the same word ("Hausa", not "Hausa (Hausa)").
 */
export function languageLabel(language: Pick<Language, 'code' | 'name' | 'nativeName'>): Html {
  const native = html`<span lang="${langOf(language.code)}">${language.nativeName}</span>`;
  return sameName(language) ? native : html`${native} (${language.name})`;
}

/** The label as plain text (titles, options). */
export function languageLabelText(language: Pick<Language, 'name' | 'nativeName'>): string {
  return sameName(language) ? language.name : `${language.nativeName} (${language.name})`;
}

function sameName(language: Pick<Language, 'name' | 'nativeName'>): boolean {
  return language.nativeName.trim().toLocaleLowerCase('en') === language.name.trim().toLocaleLowerCase('en');
}

/** How each match type reads to a person (API matchType values in brackets in the docs). */
export const MATCH_LABELS: Readonly<Record<MatchType, string>> = {
  exact: 'exact match',
  meaning: 'matched an English meaning',
  folded: 'matched without tone marks',
  variant: 'matched a variant spelling',
  form: 'matched another form (plural, inflected form, romanisation)',
  inflected: 'read as an inflected form of this word',
  prefix: 'starts with your search',
  gloss: 'matched the English gloss',
  browse: '',
};

/** A form match, by the kind of form the search found (FormSchema): "matched its stem la". */
export const FORM_MATCH_LABELS: Readonly<Record<FormKind, string>> = {
  'tone-marked': 'the form with tone marks',
  spelling: 'another spelling',
  romanisation: 'the romanisation',
  'other-script': 'the form in another script',
  plural: 'the plural',
  form: 'another form',
  stem: 'its stem',
  'class-form': 'its noun-class form',
};

export function partOfSpeechLabel(value: string): string {
  return value.replace(/-/g, ' ');
}

/**
 * The website's choices of what a search matches (the API's scope), in the order offered: the value sent (none for
 * the default) and the option's words.
 */
export const SCOPE_OPTIONS: readonly { readonly value: '' | Exclude<SearchScope, 'all'>; readonly label: string }[] = [
  { value: '', label: 'Words and meanings' },
  { value: 'headword', label: 'Words only' },
  { value: 'meaning', label: 'English meanings only' },
];

/** The scope a form value names; undefined for the default and for a value that names none. */
export function scopeChoice(value: string): Exclude<SearchScope, 'all'> | undefined {
  for (const option of SCOPE_OPTIONS) if (option.value !== '' && option.value === value) return option.value;
  return undefined;
}

export interface SearchFormInput {
  q?: string;
  language?: string;
  /** What the search matched: absent for words and meanings both. */
  scope?: Exclude<SearchScope, 'all'>;
  languages: readonly Language[];
  /** id prefix, so two forms on one page keep unique ids. */
  idPrefix?: string;
  /**
   * On results pages: one row (two on a phone) under the heading, labels for screen readers only (the
   * Search button beside the field names its purpose) and no tip, so that results start on the first screen.
   */
  compact?: boolean;
}

export function searchForm(input: SearchFormInput): Html {
  const id = input.idPrefix ?? 'search';
  const active = input.languages.filter((l) => l.status === 'active');
  const labelClass = input.compact ? html` class="visually-hidden"` : '';
  return html`<form class="search${input.compact ? ' compact' : ''}" role="search" action="/search" method="get">
<div class="field q"><label for="${id}-q"${labelClass}>Word or English meaning</label>
<input id="${id}-q" name="q" type="search" value="${input.q ?? ''}" maxlength="${MAX_QUERY_CHARS}"
 autocapitalize="none" autocomplete="off" spellcheck="false" placeholder="e.g. omi, water, ego"></div>
<div class="field lang"><label for="${id}-language"${labelClass}>Language</label>
<select id="${id}-language" name="language">
<option value="">All languages</option>
${active.map(
  // The native name leads and the option carries its language (an option holds text only, so the whole
  // option is marked); the English name follows for those who do not read it.
  (l) =>
    html`<option value="${l.code}" lang="${langOf(l.code)}"${input.language === l.code ? html` selected` : ''}>${languageLabelText(l)}</option>`,
)}
</select></div>
<div class="field scope"><label for="${id}-scope"${labelClass}>Search in</label>
<select id="${id}-scope" name="scope">
${SCOPE_OPTIONS.map((o) => html`<option value="${o.value}"${(input.scope ?? '') === o.value ? html` selected` : ''}>${o.label}</option>`)}
</select></div>
<button type="submit">Search</button>
</form>
${input.compact ? '' : html`<p class="note">Tone marks are optional: <span lang="yo">omo</span> finds <span lang="yo">ọmọ</span>, and an English
word finds the entries it translates.</p>`}`;
}

/** The operator's contact as a link, or plain words saying that none is published (OPERATOR_CONTACT unset). */
export function operatorContactText(contact: OperatorContact | undefined): Html {
  if (!contact) return html`this service has not published a contact address yet.`;
  return html`<a href="${contact.href}">${contact.text}</a>.`;
}
