// Why the reader writes its LIMITs into the SQL: the same statements with the LIMIT bound as a parameter and
// written as a literal, timed on a snapshot. SQLite plans with a LIMIT's value, so binding one makes it
// re-prepare the statement on every execution. Run by npm run bench on its snapshot; alone:
//   node --import tsx scripts/bench/bound-limit.ts --snapshot <file>   (npm run build:snapshot -- --out <file>)
// Prints JSON.
import { parseArgs } from 'node:util';

import Database from 'better-sqlite3';

import { MAX_RANKED_ROWS } from '../../services/shared/snapshot/format.ts';

export interface LimitTiming {
  statement: string;
  boundUs: number;
  literalUs: number;
}

const WARMUP = 2_000;
const REPS = 20_000;

/** Mean µs per call of `run`, over alternating values so that every call binds something new. */
function time(run: (i: number) => unknown): number {
  for (let i = 0; i < WARMUP; i++) run(i);
  const start = process.hrtime.bigint();
  for (let i = 0; i < REPS; i++) run(i);
  return Number(process.hrtime.bigint() - start) / 1e3 / REPS;
}

function main(): void {
  const { values } = parseArgs({ options: { snapshot: { type: 'string' } } });
  if (!values.snapshot) throw new Error('--snapshot is required');
  const db = new Database(values.snapshot, { readonly: true, fileMustExist: true });
  // As the reader opens it (services/api/snapshot/reader.ts).
  db.pragma('locking_mode = EXCLUSIVE');
  const bound = MAX_RANKED_ROWS + 1;
  const fts = (limit: string) => db.prepare(`SELECT rowid FROM head_fts WHERE head_fts MATCH ? ORDER BY rowid LIMIT ${limit}`).pluck();
  const browse = (limit: string) => db.prepare(`SELECT pop FROM entries WHERE language = ? ORDER BY folded, id LIMIT ${limit} OFFSET ?`).pluck();
  const [ftsBound, ftsLiteral] = [fts('?'), fts(String(bound))];
  const [browseBound, browseLiteral] = [browse('?'), browse('20')];
  const nothing = ['{head vars} : (("zzqxj" *))', '{head vars} : (("qxzzj" *))'];
  const prefix = ['{head vars} : (("omi" *))', '{head vars} : (("ala" *))'];
  const language = ['ig', 'yo'];
  const rows: LimitTiming[] = [
    { statement: 'FTS5 query matching nothing', boundUs: time((i) => ftsBound.all(nothing[i & 1], bound)), literalUs: time((i) => ftsLiteral.all(nothing[i & 1])) },
    { statement: 'FTS5 prefix query (omi*, ala*)', boundUs: time((i) => ftsBound.all(prefix[i & 1], bound)), literalUs: time((i) => ftsLiteral.all(prefix[i & 1])) },
    { statement: 'browse page of 20', boundUs: time((i) => browseBound.all(language[i & 1], 20, 40)), literalUs: time((i) => browseLiteral.all(language[i & 1], 40)) },
  ];
  db.close();
  process.stdout.write(`${JSON.stringify({ rows })}\n`);
}

main();
