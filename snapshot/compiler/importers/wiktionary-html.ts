// The article HTML of the Wiktionary exports (.tsv and StarDict): `<i>POS</i><br><ol><li>gloss</li>…</ol>` blocks.
import { normalise } from '../../format/text.ts';

export interface ArticleBlock {
  /** Wiktionary's part-of-speech header (noun, verb, name, character…). */
  pos: string;
  glosses: string[];
}

const BLOCK = /<i>([^<]*)<\/i>\s*(?:<br>)?\s*<ol>([\s\S]*?)<\/ol>/g;
const ITEM = /<li>([\s\S]*?)<\/li>/g;
const TAG = /<[^>]*>/g;
/** The exports escape nothing today; these five are what an HTML writer would escape. */
const ENTITIES: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** Plain text of a gloss: tags removed, the five HTML entities decoded, normalised. */
function text(fragment: string): string {
  return normalise(fragment.replace(TAG, ' ').replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e));
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
