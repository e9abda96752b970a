// Importer for a StarDict 3.0.0 dictionary in a .tar.gz (Wiktionary's export): its articles, read as the
// Wiktionary .tsv export's are.
import { readStarDict } from '../read/stardict.ts';
import { defineImporter } from './importer.ts';
import { HEADWORD_OPTIONS, articleRecords } from './wiktionary-tsv.ts';

export const stardictTar = defineImporter({
  options: HEADWORD_OPTIONS,
  read(source, into) {
    for (const { headword, article } of readStarDict(into.file, { synonyms: false }).articles) into.lexicon(articleRecords(headword, [], article, source));
  },
});
