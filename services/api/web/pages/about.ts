// /about: every corpus with its licence and attribution, the snapshot's figures, and the normalisation policy.
import type { Language, Stats } from '../../../shared/schemas.ts';
import type { OperatorContact } from '../../operator-contact.ts';
import type { CorpusSource } from '../../../../snapshot/reader/snapshot.ts';
import { languageLabel, operatorContactText } from '../components.ts';
import { html, safeUrl } from '../html.ts';
import type { Html } from '../html.ts';
import { layout } from '../layout.ts';
import type { AssetUrls } from '../layout.ts';
import { languagePath } from './language.ts';

export interface AboutPageInput {
  assets: AssetUrls;
  /** OPERATOR_CONTACT. */
  contact: OperatorContact | undefined;
  sources: readonly CorpusSource[];
  languages: readonly Language[];
  stats: Stats | undefined;
}

const ROLE_TEXT: Readonly<Record<string, string>> = {
  lexicon: 'dictionary entries',
  examples: 'example sentences',
  frequency: 'word frequencies (which words are common)',
  pronunciation: 'pronunciations (IPA)',
  forms: 'inflected forms that lead to their entries',
};

export function aboutPage(input: AboutPageInput): Html {
  const names = new Map(input.languages.map((l) => [l.code, l.name]));
  const stats = input.stats;
  const body = html`<h1>About the data</h1>
<p>Every word, meaning and example here comes from an openly licensed corpus. Each entry page names its source
and licence, and the API returns them with every entry. This is the full list.</p>
<h2>Corpora and licences</h2>
<p>By language; open one to see its corpora.</p>
${sourcesByLanguage(input.sources, names).map(([name, sources]) => html`<details class="fold">
<summary>${name} <span class="muted">(${sources.length} ${sources.length === 1 ? 'corpus' : 'corpora'})</span></summary>
${sources.map((s) => corpus(s, names))}
</details>`)}
${stats ? html`<h2>This edition</h2>
<ul>
<li>${stats.totals.entries.toLocaleString('en-GB')} entries and ${stats.totals.examples.toLocaleString('en-GB')} example sentences
from ${stats.totals.sources} sources</li>
${Object.entries(stats.entriesByLanguage).map(([code, count]) => html`<li>${names.get(code) ?? code}: ${count.toLocaleString('en-GB')} entries</li>`)}
<li>Snapshot <code>${stats.snapshot.version}</code>, built <time datetime="${stats.snapshot.builtAt}">${stats.snapshot.builtAt.slice(0, 10)}</time>${stats.snapshot.sample ? html` <strong>(sample data, not the real corpora)</strong>` : ''}</li>
</ul>` : ''}
<h2>Languages being prepared</h2>
<p>A language is served once the dictionary holds at least 1,000 of its words with an English meaning; until then
its corpus is imported at every build and counted, but not served.</p>
<ul>${input.languages.filter((l) => l.status !== 'active').map((l) => html`<li><a href="${languagePath(l.slug)}">${languageLabel(l)}</a></li>`)}</ul>
<h2>How spelling is normalised</h2>
<p>Words are stored exactly as their source wrote them, tone marks and underdots included: the form you see on
an entry page is the source's form. Only invisible differences are tidied, once, when the dictionary is built:</p>
<ul>
<li>Text is put in Unicode normal form C, so that a letter with its marks is always stored the same way
(for example <span lang="yo">ọ́</span> typed as one character or as <span lang="yo">o</span> plus two marks).</li>
<li>Combining marks are put in their standard order, and the old “tone mark” characters U+0340 and U+0341 become
the ordinary grave and acute accents.</li>
<li>Spaces at the ends of a word are removed and runs of spaces become one.</li>
</ul>
<p>For searching only, a second, plain form of each word is kept: tone marks, underdots and macrons removed
(<span lang="yo">ẹ</span>→e, <span lang="yo">ọ</span>→o, <span lang="yo">ṣ</span>→s, <span lang="ig">ị</span>→i,
<span lang="ig">ụ</span>→u, <span lang="ig">ṅ</span>→n, <span lang="ig">ā</span>→a), syllabic nasals
(<span lang="yo">ń ǹ ḿ</span>) read as n or m, Hausa's hooked letters (<span lang="ha">ɓ ɗ ƙ ƴ</span> and
<span lang="ha">'y</span>) as b, d, k and y, capitals as small letters, and the hyphen that starts Igbo verb roots
ignored. So <span lang="yo">omo</span> finds <span lang="yo">ọmọ</span>, and <span lang="ig">mmiri</span> finds Williamson's
<span lang="ig">mmilī</span>. Results say how they matched: exactly, without tone marks, through a variant spelling
(among them the Standard Igbo spellings of Williamson's Onitsha forms), through another form the source lists (a plural,
an inflected form, a romanisation), as the start of a longer word, or through the English meaning.</p>
<h2>The font</h2>
<p>Text is set in Noto Sans, © The Noto Project Authors, under the <a href="/assets/fonts/OFL.txt">SIL Open Font
License 1.1</a>, cut to the letters and marks the dictionary's languages use so that tone marks and underdots
always sit on their letter. Ge'ez (Amharic) is set in Noto Sans Ethiopic, © The Noto Project Authors, under the
<a href="/assets/fonts/OFL-Ethiopic.txt">SIL Open Font License 1.1</a>, cut to the syllables the dictionary uses.</p>
<h2>Contact</h2>
<p>For corrections, questions about the data, or the team and institution plans of the API, contact the operator of
this service: ${operatorContactText(input.contact)}</p>`;
  return layout({
    title: 'About the data',
    section: 'about',
    description: 'The corpora behind the dictionary, their licences and attribution, and the spelling policy.',
    assets: input.assets,
    body,
  });
}

/** The corpora grouped by the language they serve, in the list's order. */
function sourcesByLanguage(sources: readonly CorpusSource[], names: ReadonlyMap<string, string>): Array<[string, CorpusSource[]]> {
  const groups = new Map<string, CorpusSource[]>();
  for (const s of sources) {
    const name = names.get(s.language) ?? s.language;
    let group = groups.get(name);
    if (group === undefined) groups.set(name, (group = []));
    group.push(s);
  }
  return [...groups];
}

function corpus(s: CorpusSource, names: ReadonlyMap<string, string>): Html {
  const url = safeUrl(s.url);
  const licenceUrl = safeUrl(s.licence.url);
  return html`<section class="card" aria-labelledby="src-${s.id}">
<h3 id="src-${s.id}">${url ? html`<a href="${url}" rel="external">${s.name}</a>` : s.name}</h3>
<dl>
<dt>Gives</dt><dd>${ROLE_TEXT[s.role] ?? s.role} for ${names.get(s.language) ?? s.language}${s.records > 0 ? ` (${s.records.toLocaleString('en-GB')} records in this edition)` : ''}</dd>
<dt>Licence</dt><dd>${licenceUrl ? html`<a href="${licenceUrl}" rel="license external">${s.licence.name}</a>` : s.licence.name} (<code>${s.licence.spdx}</code>)</dd>
<dt>Attribution</dt><dd>${s.attribution}</dd>
</dl>
</section>`;
}
