// Worker thread of the entry step: reads its global rank range from the staging file and returns entry rows.
import { parentPort, workerData } from 'node:worker_threads';

import Database from 'better-sqlite3';

import type { EntryContextData, StageRow } from './entry-rows.ts';
import { createEntryStep, packBodies } from './entry-rows.ts';

export interface EntryJob {
  seq: number;
  from: number;
  to: number;
}

const data = workerData as EntryContextData;
const stage = new Database(data.stagePath, { readonly: true, fileMustExist: true });
// Nothing writes the staging file while the entries are assembled, so this connection's shared lock is held
// for its life. In the default NORMAL mode each of an entry's lookups takes and drops the lock and re-reads
// the file change counter: system calls on every lookup, however small (an entry without pronunciations
// still looks them up).
stage.pragma('locking_mode = EXCLUSIVE');
const step = createEntryStep(stage, data);
const range = stage.prepare<[number, number], StageRow>('SELECT key, id, slug, global_rank AS globalRank FROM entry WHERE global_rank BETWEEN ? AND ? ORDER BY global_rank');

parentPort?.on('message', (job: EntryJob | 'close') => {
  if (job === 'close') {
    stage.close();
    parentPort?.close();
    return;
  }
  try {
    const { rows, buffer } = packBodies(range.all(job.from, job.to).map(step));
    parentPort?.postMessage({ seq: job.seq, rows }, [buffer]);
  } catch (error) {
    parentPort?.postMessage({ seq: job.seq, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  }
});
