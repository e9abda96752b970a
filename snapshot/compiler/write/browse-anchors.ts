// The `browse_anchors` table: every BROWSE_ANCHOR_EVERY-th position of the browse order (browse_key, id) for each
// filter the API offers without q (all, a language, a part of speech, both), read by
// snapshot/reader/search.ts to seek to a deep page instead of stepping through the rows before it.
import type Database from 'better-sqlite3';

import { ANY_FILTER, BROWSE_ANCHOR_EVERY } from '../../format/format.ts';

/** Each filter as the language and pos it stores: a column, or the "any" key. */
const FILTERS = [
  { language: false, pos: false },
  { language: true, pos: false },
  { language: false, pos: true },
  { language: true, pos: true },
];

type Anchor = [language: string, pos: string, position: number, browseKey: string, id: number];

/** Needs the entries table and its browse indexes; returns the number of anchors written. */
export function writeBrowseAnchors(db: Database.Database): number {
  const anchors: Anchor[] = [];
  for (const filter of FILTERS) {
    // Ordered as the filter's browse index (covering: no sort, constant memory); the "any" key is a constant.
    const order = [filter.language ? 'language' : '', filter.pos ? 'pos' : '', 'browse_key', 'id'].filter(Boolean).join(', ');
    const select = `SELECT ${filter.language ? 'language' : `'${ANY_FILTER}'`}, ${filter.pos ? 'pos' : `'${ANY_FILTER}'`}, browse_key, id FROM entries ORDER BY ${order}`;
    let group = '';
    let position = 0;
    for (const [language, pos, browseKey, id] of db.prepare(select).raw().iterate() as IterableIterator<[string, string, string, number]>) {
      const key = `${language}\u0001${pos}`;
      if (key !== group) {
        group = key;
        position = 0;
      }
      if (position > 0 && position % BROWSE_ANCHOR_EVERY === 0) anchors.push([language, pos, position, browseKey, id]);
      position++;
    }
  }
  // Written after reading: the connection cannot write while a statement is being iterated.
  const insert = db.prepare('INSERT INTO browse_anchors (language, pos, position, browse_key, id) VALUES (?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (const anchor of anchors) insert.run(...anchor);
  })();
  return anchors.length;
}
