// Every importer, by the name a source gives in corpora/sources.json (`importer`): one per format, not per
// language. The manifest's schema is made from this table (snapshot/compiler/manifest.ts), so adding a format is
// its file here and one line below.
import { conllu } from './conllu.ts';
import { freedictTeiReversed } from './freedict-tei-reversed.ts';
import { freedictTei } from './freedict-tei.ts';
import { igboApiJson } from './igbo-api-json.ts';
import type { Importer } from './importer.ts';
import { ipaDictTsv } from './ipa-dict-tsv.ts';
import { kaikkiJson } from './kaikki-json.ts';
import { mfaDict } from './mfa-dict.ts';
import { ntrexLines } from './ntrex-lines.ts';
import { stardictSyn } from './stardict-syn.ts';
import { stardictTar } from './stardict-tar.ts';
import { unilexTsv } from './unilex-tsv.ts';
import { unimorphGloss } from './unimorph-gloss.ts';
import { unimorphTsv } from './unimorph-tsv.ts';
import { wikipronTsv } from './wikipron-tsv.ts';
import { wiktionaryTsv } from './wiktionary-tsv.ts';

export const IMPORTERS = {
  /** One JSON object, headword → [record] (the Igbo API's dictionary). */
  'igbo-api-json': igboApiJson,
  /** One JSON object of kaikki.org (Wiktextract) records. */
  'kaikki-json': kaikkiJson,
  /** A CoNLL-U treebank: example sentences by lemma. */
  conllu,
  /** `Form<TAB>Frequency` (Unicode Unilex): frequency ranks. */
  'unilex-tsv': unilexTsv,
  /** `headword|form|…<TAB>HTML` (Vuizur's Wiktionary exports). */
  'wiktionary-tsv': wiktionaryTsv,
  /** StarDict 3.0.0 in a .tar.gz: the articles. */
  'stardict-tar': stardictTar,
  /** The same archive's .syn: inflected form → article. */
  'stardict-syn': stardictSyn,
  /** FreeDict TEI. */
  'freedict-tei': freedictTei,
  /** FreeDict TEI, the reversed edition (English headwords). */
  'freedict-tei-reversed': freedictTeiReversed,
  /** `word<TAB>IPA segments` (WikiPron). */
  'wikipron-tsv': wikipronTsv,
  /** `word<TAB>phones` (Montreal Forced Aligner dictionaries). */
  'mfa-dict': mfaDict,
  /** `word<TAB>/IPA/` (ipa-dict). */
  'ipa-dict-tsv': ipaDictTsv,
  /** `lemma<TAB>form<TAB>features` (UniMorph inflection tables): inflected forms of entries. */
  'unimorph-tsv': unimorphTsv,
  /** `lemma<TAB>glosses` (UniMorph's English glosses of a table's lemmas): entries. */
  'unimorph-gloss': unimorphGloss,
  /** One sentence per line, line-aligned with an English file (NTREX-128): examples. */
  'ntrex-lines': ntrexLines,
} satisfies Record<string, Importer>;

export type ImporterName = keyof typeof IMPORTERS;

/** The registered names, in table order (the manifest's `importer` takes one of them). */
export const IMPORTER_NAMES = Object.keys(IMPORTERS) as [ImporterName, ...ImporterName[]];
