// The row changes a write makes, captured by TEMP triggers on this connection's replicated tables and replayed
// on the other hosts' copies: each change is a whole row (put) or a row's key (del), so applying a group's
// changes in order gives exactly the writer's rows, whatever the other copy held before.
import { z } from 'zod';

import type { Db } from '../db/open.ts';

/** The tables each kind of database replicates (metering.db's storage probe and legacy quota stay local). */
export const REPLICATED_TABLES = {
  accounts: ['developers', 'api_keys', 'registration_attempts'],
  shard: ['quota_days', 'quota_holds'],
} as const;

const value = z.union([z.string(), z.number(), z.null()]);
export const changeSchema = z.object({
  t: z.string().regex(/^[a-z_]+$/),
  op: z.enum(['put', 'del']),
  row: z.record(value),
});
export type Change = z.infer<typeof changeSchema>;
export const changesSchema = z.array(changeSchema);

/** The local applied position in the stream, kept in the same database and written in the same transaction. */
const APPLIED_TABLE = 'replication_applied';

interface Column {
  name: string;
  pk: number;
}

interface TableShape {
  columns: string[];
  /** The primary key's columns, or ['rowid'] for a table without one. */
  key: string[];
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

function shapeOf(db: Db, table: string): TableShape {
  const info = db.prepare<[], Column>(`PRAGMA table_info(${quote(table)})`).all();
  if (info.length === 0) throw new Error(`no table ${table} to replicate`);
  const key = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
  return { columns: info.map((c) => c.name), key: key.length > 0 ? key : ['rowid'] };
}

/**
 * Captures and replays the changes of one database: TEMP triggers (this connection's only, so another process
 * writing the same file is not captured here) log every insert, update and delete of the replicated tables.
 */
export class ChangeCapture {
  readonly #db: Db;
  readonly #shapes = new Map<string, TableShape>();
  readonly #take: () => { t: string; op: 'put' | 'del'; row: string }[];
  readonly #clear: () => void;
  readonly #applied: () => number;
  readonly #setApplied: (seq: number) => void;
  readonly #stream: string;
  /** Statements of the applied changes, by their SQL (a table's changes share a few shapes). */
  readonly #statements = new Map<string, ReturnType<Db['prepare']>>();

  constructor(db: Db, tables: readonly string[], stream: string) {
    this.#db = db;
    this.#stream = stream;
    db.exec(`CREATE TABLE IF NOT EXISTS ${APPLIED_TABLE} (stream TEXT PRIMARY KEY, seq INTEGER NOT NULL)`);
    db.exec('CREATE TEMP TABLE IF NOT EXISTS replication_changes (n INTEGER PRIMARY KEY, t TEXT NOT NULL, op TEXT NOT NULL, row TEXT NOT NULL)');
    for (const table of tables) {
      const shape = shapeOf(db, table);
      this.#shapes.set(table, shape);
      const image = (ref: 'NEW' | 'OLD', cols: string[]) => `json_object(${cols.map((c) => `'${c}', ${ref}.${quote(c)}`).join(', ')})`;
      const all = shape.key[0] === 'rowid' ? ['rowid', ...shape.columns] : shape.columns;
      for (const [event, op, ref, cols] of [
        ['INSERT', 'put', 'NEW', all],
        ['UPDATE', 'put', 'NEW', all],
        ['DELETE', 'del', 'OLD', shape.key],
      ] as const) {
        db.exec(
          `CREATE TEMP TRIGGER IF NOT EXISTS replicate_${table}_${event.toLowerCase()} AFTER ${event} ON main.${quote(table)}
           BEGIN INSERT INTO replication_changes (t, op, row) VALUES ('${table}', '${op}', ${image(ref, cols)}); END`,
        );
      }
    }
    const take = db.prepare<[], { t: string; op: 'put' | 'del'; row: string }>('SELECT t, op, row FROM replication_changes ORDER BY n');
    const clear = db.prepare('DELETE FROM replication_changes');
    this.#take = () => take.all();
    this.#clear = () => void clear.run();
    const applied = db.prepare<[string], { seq: number }>(`SELECT seq FROM ${APPLIED_TABLE} WHERE stream = ?`);
    const setApplied = db.prepare<[string, number]>(
      `INSERT INTO ${APPLIED_TABLE} (stream, seq) VALUES (?, ?) ON CONFLICT (stream) DO UPDATE SET seq = excluded.seq`,
    );
    this.#applied = () => applied.get(stream)?.seq ?? 0;
    this.#setApplied = (seq) => void setApplied.run(stream, seq);
  }

  get db(): Db {
    return this.#db;
  }

  /** The last stream sequence this database holds. */
  applied(): number {
    return this.#applied();
  }

  /** Inside the writer's transaction: the changes since the last take, the last image of each row only. */
  take(): Change[] {
    const rows = this.#take();
    this.#clear();
    const last = new Map<string, Change>();
    for (const r of rows) {
      const row = JSON.parse(r.row) as Record<string, string | number | null>;
      const id = `${r.t}\u0000${this.#shapes.get(r.t)?.key.map((k) => String(row[k])).join('\u0000')}`;
      // Deleted then re-inserted, or updated twice: the row's final image is what the other copies need.
      last.delete(id);
      last.set(id, { t: r.t, op: r.op, row });
    }
    return [...last.values()];
  }

  /** Forgets captured changes (a group rolled back, or writes that are each host's own: housekeeping). */
  discard(): void {
    this.#clear();
  }

  /** Inside the writer's transaction, after the append: the stream position its state now holds. */
  markApplied(seq: number): void {
    this.#setApplied(seq);
  }

  /** Applies one stream message unless this database already holds it; true when applied. */
  apply(seq: number, changes: readonly Change[]): boolean {
    let done = false;
    this.#db
      .transaction(() => {
        if (seq <= this.#applied()) return;
        for (const change of changes) this.#applyOne(change);
        this.#setApplied(seq);
        done = true;
      })
      .immediate();
    this.#clear();
    return done;
  }

  #run(sql: string, row: Change['row']): void {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    statement.run(row);
  }

  #applyOne(change: Change): void {
    const shape = this.#shapes.get(change.t);
    if (shape === undefined) throw new Error(`stream ${this.#stream} names table ${change.t}, which is not replicated here`);
    if (change.op === 'del') {
      this.#run(`DELETE FROM ${quote(change.t)} WHERE ${shape.key.map((k) => `${quote(k)} = @${k}`).join(' AND ')}`, change.row);
      return;
    }
    const cols = Object.keys(change.row).filter((c) => c === 'rowid' || shape.columns.includes(c));
    const values = cols.map((c) => `@${c}`).join(', ');
    const names = cols.map(quote).join(', ');
    if (shape.key[0] === 'rowid') {
      this.#run(`INSERT OR REPLACE INTO ${quote(change.t)} (${names}) VALUES (${values})`, change.row);
      return;
    }
    // An upsert, not INSERT OR REPLACE: a replaced developer row would be a delete that its keys' foreign key refuses.
    const sets = cols.filter((c) => !shape.key.includes(c)).map((c) => `${quote(c)} = excluded.${quote(c)}`);
    const onConflict = sets.length > 0 ? `DO UPDATE SET ${sets.join(', ')}` : 'DO NOTHING';
    this.#run(`INSERT INTO ${quote(change.t)} (${names}) VALUES (${values}) ON CONFLICT (${shape.key.map(quote).join(', ')}) ${onConflict}`, change.row);
  }
}
