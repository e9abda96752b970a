// Phase 5: every entry assembled, validated and written with its search rows, in global rank order.
import type { Hash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { WorkerOptions } from 'node:worker_threads';

import type Database from 'better-sqlite3';

import { browseKey } from '../../format/text.ts';
import type { Progress } from '../progress.ts';
import type { DownloadSink } from './downloads.ts';
import type { EntryContextData, EntryRows, StageRow } from './entry-rows.ts';
import { EntryValidationError, createEntryStep, packBodies } from './entry-rows.ts';
import type { EntryJob } from './entry-worker.ts';
import { FactsTable } from './facts.ts';

/** Below this many entries the step runs in-process: starting workers would cost more than it saves. */
export const WORKER_THRESHOLD_ENTRIES = 20_000;
/** Entries per job sent to a worker. */
const JOB_ENTRIES = 1000;
/**
 * Form rows per INSERT (several VALUES rows): an entry has several form rows, a 1M-entry build millions, all
 * written on the writer's thread (the build's critical path); one statement per row would pay a statement
 * call (bind, step, reset) for each.
 */
const FORM_ROWS_PER_INSERT = 32;
const FORM_COLUMNS = 5;
/** Jobs in flight per worker, so a worker never waits for the writer. */
const JOBS_IN_FLIGHT = 2;
const MAX_WORKERS = 2;
/**
 * Old-generation bound of each entry worker's V8 heap. A worker holds the shared context (language names,
 * sources, frequency ranks, variant keys, treebank examples) and a few jobs of JOB_ENTRIES entries: tens of
 * MB. Unbounded, V8 sizes a worker's heap from the machine's memory and lets it grow far past that before
 * collecting, and the two workers' heaps make most of the 1M-entry build's peak (the bench's build scaling,
 * against the 1 GB target). A worker that needs more fails the build with ERR_WORKER_OUT_OF_MEMORY; it never
 * writes a partial snapshot.
 */
export const ENTRY_WORKER_HEAP_MB = 128;

export interface WriteEntriesInput {
  db: Database.Database;
  data: EntryContextData;
  hash: Hash;
  progress: Progress;
  total: number;
  /** Worker threads for assembling entries; default: by size and cores (0 = in-process). */
  workers?: number;
  /** Receives every batch once written, in global rank order (the downloads); its congestion holds back new batches. */
  downloads?: DownloadSink;
}

/**
 * Entries go out in global rank order: the entries and FTS tables are then appended to sequentially,
 * which keeps the build fast and the pages full at a million entries. Assembling (JSON, links, zod)
 * runs on worker threads for big builds, writing stays on this thread, in order.
 */
export async function writeEntries(input: WriteEntriesInput): Promise<FactsTable> {
  const { db, progress, total } = input;
  const insertEntry = db.prepare('INSERT INTO entries (global_rank, id, slug, language, pos, browse_key) VALUES (?, ?, ?, ?, ?, ?)');
  // The body comes as UTF-8 bytes (packBodies); CAST stores them as the TEXT they are, without transcoding.
  const insertJson = db.prepare('INSERT INTO entry_json (global_rank, body) VALUES (?, CAST(? AS TEXT))');
  const insertSummary = db.prepare('INSERT INTO entry_summary (global_rank, summary) VALUES (?, ?)');
  const insertForm = db.prepare('INSERT INTO temp.form_rows (key, kind, global_rank, language, pos) VALUES (?, ?, ?, ?, ?)');
  const insertForms = db.prepare(`INSERT INTO temp.form_rows (key, kind, global_rank, language, pos) VALUES ${Array(FORM_ROWS_PER_INSERT).fill('(?, ?, ?, ?, ?)').join(', ')}`);
  /** Form rows' values waiting for a full insertForms. */
  const formValues: (string | number)[] = [];
  const insertHead = db.prepare('INSERT INTO head_fts (rowid, head, vars, tags) VALUES (?, ?, ?, ?)');
  const insertGloss = db.prepare('INSERT INTO gloss_fts (rowid, glosses, tags) VALUES (?, ?, ?)');
  const insertOtherForm = db.prepare('INSERT INTO temp.other_form_rows (key, global_rank) VALUES (?, ?)');
  const facts = new FactsTable(total);
  const writeRows = db.transaction((rows: EntryRows[]) => {
    for (const r of rows) {
      const f = r.facts;
      input.hash.update(r.body);
      input.hash.update('\n');
      insertEntry.run(f.globalRank, f.id, r.slug, f.language, f.partOfSpeech, browseKey(r.folded));
      insertJson.run(f.globalRank, r.body);
      insertSummary.run(f.globalRank, r.summary);
      for (const [key, kind] of r.forms) {
        formValues.push(key, kind, f.globalRank, f.language, f.partOfSpeech);
        if (formValues.length === FORM_ROWS_PER_INSERT * FORM_COLUMNS) {
          insertForms.run(formValues);
          formValues.length = 0;
        }
      }
      insertHead.run(f.globalRank, r.head, r.vars, r.tags);
      if (r.gloss !== null) insertGloss.run(f.globalRank, r.gloss, r.tags);
      for (const key of r.otherForms) insertOtherForm.run(key, f.globalRank);
      facts.set(f);
    }
    // The batch's last rows, one statement each: the transaction ends with the batch.
    for (let i = 0; i < formValues.length; i += FORM_COLUMNS) insertForm.run(formValues.slice(i, i + FORM_COLUMNS));
    formValues.length = 0;
    progress.tick(rows.length);
  });
  const { downloads } = input;
  const writeBatch = (rows: EntryRows[]): void => {
    writeRows(rows);
    downloads?.write(rows);
  };
  progress.phase('write entries', total);
  const workers = input.workers ?? (total < WORKER_THRESHOLD_ENTRIES ? 0 : Math.max(1, Math.min(MAX_WORKERS, availableParallelism())));
  if (workers === 0) {
    // In-process: the staging tables are reachable unqualified through the attached `stage` schema.
    const step = createEntryStep(db, input.data);
    const range = db.prepare<[number, number], StageRow>('SELECT key, id, slug, global_rank AS globalRank FROM stage.entry WHERE global_rank BETWEEN ? AND ? ORDER BY global_rank');
    for (let from = 1; from <= total; from += JOB_ENTRIES) {
      writeBatch(packBodies(range.all(from, Math.min(total, from + JOB_ENTRIES - 1)).map(step)).rows);
      if (downloads?.congested) await downloads.drained();
    }
  } else {
    await runWorkers(workers, input.data, total, writeBatch, downloads);
  }
  progress.end();
  return facts;
}

/**
 * The worker's entry point. Under tsx (sources run as .ts) a worker thread does not inherit tsx's module
 * hooks, so a tiny bootstrap registers them before importing the TypeScript worker.
 */
function workerEntry(): URL {
  const worker = new URL(`./entry-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
  if (!worker.pathname.endsWith('.ts')) return worker;
  const api = import.meta.resolve('tsx/esm/api');
  const bootstrap = `const { register } = await import(${JSON.stringify(api)}); register(); await import(${JSON.stringify(worker.href)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`);
}

/** How an entry worker is started: its context as workerData, its heap bounded (ENTRY_WORKER_HEAP_MB). */
export function entryWorkerOptions(data: EntryContextData): WorkerOptions {
  return { workerData: data, resourceLimits: { maxOldGenerationSizeMb: ENTRY_WORKER_HEAP_MB } };
}

function runWorkers(
  count: number,
  data: EntryContextData,
  total: number,
  write: (rows: EntryRows[]) => void,
  downloads: DownloadSink | undefined,
): Promise<void> {
  const jobs = Math.ceil(total / JOB_ENTRIES);
  return new Promise((resolve, reject) => {
    const pool: Worker[] = [];
    const done = new Map<number, EntryRows[]>();
    let nextJob = 0;
    let nextWrite = 0;
    let failed = false;
    const finish = (error?: Error): void => {
      if (failed) return;
      for (const w of pool) void w.terminate();
      if (error) {
        failed = true;
        reject(error);
      } else resolve();
    };
    const dispatch = (worker: Worker): void => {
      if (failed || nextJob >= jobs) return;
      const seq = nextJob++;
      const job: EntryJob = { seq, from: seq * JOB_ENTRIES + 1, to: Math.min(total, (seq + 1) * JOB_ENTRIES) };
      worker.postMessage(job);
    };
    if (jobs === 0) return resolve();
    for (let i = 0; i < count; i++) {
      const worker = new Worker(workerEntry(), entryWorkerOptions(data));
      pool.push(worker);
      worker.on('error', (error) => finish(error));
      worker.on('message', (message: { seq: number; rows?: EntryRows[]; error?: string }) => {
        if (failed) return;
        if (message.error !== undefined) return finish(new EntryValidationError(message.error));
        done.set(message.seq, message.rows ?? []);
        // While zlib is behind on the downloads, this worker gets its next job only once it has caught up.
        if (downloads?.congested) downloads.drained().then(() => dispatch(worker), (error: Error) => finish(error));
        else dispatch(worker);
        try {
          // Results come back out of order; they are written strictly in job (= global rank) order.
          for (let rows = done.get(nextWrite); rows !== undefined; rows = done.get(nextWrite)) {
            done.delete(nextWrite);
            write(rows);
            nextWrite += 1;
          }
        } catch (error) {
          return finish(error as Error);
        }
        if (nextWrite >= jobs) finish();
      });
      for (let j = 0; j < JOBS_IN_FLIGHT; j++) dispatch(worker);
    }
  });
}
