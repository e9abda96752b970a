// The article HTML of the Wiktionary exports (.tsv and StarDict): `<i>POS</i><br><ol><li>gloss</li>…</ol>` blocks.
import { normalise } from '../../format/text.ts';
import { decodeEntities } from './html-entities.ts';

export interface ArticleBlock {
  /** Wiktionary's part-of-speech header (noun, verb, name, character…). */
  pos: string;
  glosses: string[];
}

const BLOCK = /<i>([^<]*)<\/i>\s*(?:<br>)?\s*<ol>([\s\S]*?)<\/ol>/g;
const ITEM = /<li>([\s\S]*?)<\/li>/g;
const TAG = /<[^>]*>/g;
/** Plain text of a gloss: tags removed, character references decoded, normalised. */
function text(fragment: string): string {
  return normalise(decodeEntities(fragment.replace(TAG, ' ')));
}

/** The blocks of one article, in order; glosses de-duplicated and without empty ones. */
export function parseArticle(html: string): ArticleBlock[] {
  const blocks: ArticleBlock[] = [];
  for (const [, pos, items] of html.matchAll(BLOCK)) {
    const glosses: string[] = [];
    for (const [, item] of items.matchAll(ITEM)) {
      const gloss = text(item);
      if (gloss !== '' && !glosses.includes(gloss)) glosses.push(gloss);
    }
    blocks.push({ pos: pos.trim(), glosses });
  }
  return blocks;
}
