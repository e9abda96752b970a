// The `browse_anchors` table: every BROWSE_ANCHOR_EVERY-th position of the browse order (folded, id) for each
// filter the API offers without q (all, a language, a part of speech, both), read by
// services/api/snapshot/search.ts to seek to a deep page instead of stepping through the rows before it.
import type Database from 'better-sqlite3';

import { BROWSE_ANCHOR_EVERY } from '../../services/api/snapshot/format.ts';

/** The filters' columns, each read in the order of its browse index (covering: no sort, constant memory). */
const FILTERS: readonly (readonly ('language' | 'pos')[])[] = [[], ['language'], ['pos'], ['language', 'pos']];
/** '*' stands for "any", as in the counts table. */
const ANY = '*';

type Anchor = [language: string, pos: string, position: number, folded: string, id: number];

/** Needs the entries table and its browse indexes; returns the number of anchors written. */
export function writeBrowseAnchors(db: Database.Database): number {
  const anchors: Anchor[] = [];
  for (const filter of FILTERS) {
    const columns = [...filter, 'folded', 'id'].join(', ');
    const rows = db.prepare(`SELECT ${columns} FROM entries ORDER BY ${columns}`).raw().iterate() as IterableIterator<unknown[]>;
    let group = '';
    let position = 0;
    for (const row of rows) {
      const values = row.slice(0, filter.length) as string[];
      const key = values.join('\u0001');
      if (key !== group) {
        group = key;
        position = 0;
      }
      if (position > 0 && position % BROWSE_ANCHOR_EVERY === 0) {
        const of = (column: 'language' | 'pos'): string => (filter.includes(column) ? values[filter.indexOf(column)] : ANY);
        anchors.push([of('language'), of('pos'), position, row[filter.length] as string, row[filter.length + 1] as number]);
      }
      position++;
    }
  }
  // Written after reading: the connection cannot write while a statement is being iterated.
  const insert = db.prepare('INSERT INTO browse_anchors (language, pos, position, folded, id) VALUES (?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (const anchor of anchors) insert.run(...anchor);
  })();
  return anchors.length;
}
