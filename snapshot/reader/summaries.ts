// The word summaries that search pages are made of, held in the worker as UTF-8 bytes up to a budget.
//
// Read per row, each summary of a page would be a statement of its own (about seven per search in the bench's
// mix), handed over by SQLite as a JS string decoded from UTF-8, only for the route to encode the page back to
// UTF-8. Held here as bytes, a page's items are copied straight into the body.
import Database from 'better-sqlite3';

/**
 * Bytes of summaries a worker holds (the real corpora fit whole: test/snapshot/reader/summaries.test.ts). Entries are taken in global rank order
 * until the budget is spent, so a snapshot larger than that (the bench's synthetic million) keeps its
 * best-ranked entries here, the ones most searches return, and reads the rest from SQLite row by row.
 */
export const SUMMARY_BUDGET_BYTES = 16 * 1024 * 1024;

/** Where one summary's bytes are: `source[start, end)`. */
export interface SummaryBytes {
  source: Buffer;
  start: number;
  end: number;
}

export class SummaryStore {
  readonly #arena: Buffer;
  /** Offsets into the arena: the summary of global rank `r` (1..held) is arena[starts[r - 1], starts[r]). */
  readonly #starts: Int32Array;
  readonly #read: Database.Statement<[number], string>;

  constructor(db: Database.Database, budgetBytes = SUMMARY_BUDGET_BYTES) {
    this.#read = db.prepare('SELECT summary FROM entry_summary WHERE global_rank = ?').pluck() as Database.Statement<[number], string>;
    // Read through a connection of its own without the memory map, so the scanned pages do not stay resident in
    // the worker beside the copy held here.
    const scan = db.memory ? db : new Database(db.name, { readonly: true, fileMustExist: true });
    let loaded: [Buffer, Int32Array];
    try {
      if (scan !== db) scan.pragma('mmap_size = 0');
      loaded = SummaryStore.load(scan, budgetBytes);
    } finally {
      if (scan !== db) scan.close();
    }
    [this.#arena, this.#starts] = loaded;
  }

  /** The summaries of global ranks 1..n in rank order, copied into one buffer, until the budget is spent. */
  private static load(db: Database.Database, budgetBytes: number): [Buffer, Int32Array] {
    const rows = db.prepare('SELECT global_rank, CAST(summary AS BLOB) FROM entry_summary ORDER BY global_rank').raw() as Database.Statement<[], [number, Buffer]>;
    // Untouched pages of the budget's allocation never become resident; the arena is copied to its size below.
    const arena = Buffer.allocUnsafeSlow(budgetBytes);
    const starts: number[] = [0];
    let used = 0;
    for (const [globalRank, bytes] of rows.iterate()) {
      // Global ranks are 1..n (snapshot/compiler/write/entries.ts); a gap or the budget ends what is held, in rank order.
      if (globalRank !== starts.length || used + bytes.length > budgetBytes) break;
      bytes.copy(arena, used);
      used += bytes.length;
      starts.push(used);
    }
    const held = Buffer.allocUnsafeSlow(used);
    arena.copy(held, 0, 0, used);
    return [held, Int32Array.from(starts)];
  }

  /** Summaries held in memory (global ranks 1..held). */
  get held(): number {
    return this.#starts.length - 1;
  }

  /** The summary's JSON bytes; read from the snapshot when it is beyond the budget. */
  get(globalRank: number): SummaryBytes {
    if (globalRank >= 1 && globalRank <= this.held) return { source: this.#arena, start: this.#starts[globalRank - 1], end: this.#starts[globalRank] };
    const text = this.#read.get(globalRank);
    if (text === undefined) throw new Error(`snapshot is inconsistent: no entry at rank ${globalRank}`);
    const source = Buffer.from(text);
    return { source, start: 0, end: source.length };
  }
}
