// Worker thread of the entry step: reads its pop range from the staging file and returns entry rows.
import { parentPort, workerData } from 'node:worker_threads';

import Database from 'better-sqlite3';

import type { EntryContextData, StageRow } from './entry-rows.ts';
import { createEntryStep } from './entry-rows.ts';

export interface EntryJob {
  seq: number;
  from: number;
  to: number;
}

const data = workerData as EntryContextData;
const stage = new Database(data.stagePath, { readonly: true, fileMustExist: true });
const step = createEntryStep(stage, data);
const range = stage.prepare<[number, number], StageRow>('SELECT key, id, slug, pop FROM entry WHERE pop BETWEEN ? AND ? ORDER BY pop');

parentPort?.on('message', (job: EntryJob | 'close') => {
  if (job === 'close') {
    stage.close();
    parentPort?.close();
    return;
  }
  try {
    parentPort?.postMessage({ seq: job.seq, rows: range.all(job.from, job.to).map(step) });
  } catch (error) {
    parentPort?.postMessage({ seq: job.seq, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  }
});
