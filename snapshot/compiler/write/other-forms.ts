// Writes the other_forms table: every other form's folded key with its entries, front-coded in blocks.
import type Database from 'better-sqlite3';

import { FORM_BLOCK_KEYS, encodeFormBlock } from '../../format/form-blocks.ts';

/**
 * Reads the gathered (key, global_rank) rows in key order (SQLite's binary order is the bytes' order, the order the
 * blocks are searched in) and writes one row per FORM_BLOCK_KEYS keys. Returns the keys and bytes written.
 */
export function writeOtherForms(db: Database.Database): { keys: number; bytes: number } {
  const blocks: [string, Buffer][] = [];
  let keys: Buffer[] = [];
  let globalRanks: number[][] = [];
  let total = 0;
  let bytes = 0;
  const flush = (): void => {
    if (keys.length === 0) return;
    const block = encodeFormBlock(keys, globalRanks);
    blocks.push([keys[0].toString('utf8'), block]);
    bytes += block.length + keys[0].length;
    keys = [];
    globalRanks = [];
  };
  let last: string | null = null;
  // Read row by row (the connection cannot write meanwhile: the blocks, a few MB, are inserted after).
  const rows = db.prepare('SELECT DISTINCT key, global_rank FROM temp.other_form_rows ORDER BY key, global_rank').raw().iterate() as IterableIterator<[string, number]>;
  for (const [key, globalRank] of rows) {
    if (key !== last) {
      if (keys.length === FORM_BLOCK_KEYS) flush();
      keys.push(Buffer.from(key, 'utf8'));
      globalRanks.push([]);
      last = key;
      total += 1;
    }
    globalRanks[globalRanks.length - 1].push(globalRank);
  }
  flush();
  const insert = db.prepare('INSERT INTO other_forms (first, block) VALUES (?, ?)');
  for (const [first, block] of blocks) insert.run(first, block);
  db.exec('DROP TABLE temp.other_form_rows');
  return { keys: total, bytes };
}
