// Helpers for build tests: temporary corpora copies and in-process builds.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import Database from 'better-sqlite3';

import { SAMPLE_DIR } from '../../../snapshot/compiler/inputs.ts';
import { buildSnapshot } from '../../../snapshot/compiler/pipeline.ts';
import type { BuildResult } from '../../../snapshot/compiler/pipeline.ts';
import { tempDir as makeTempDir } from '../../support/temp-dir.ts';

export const SHARED_CORPORA = path.resolve(SAMPLE_DIR, '..', '..', '..', 'shared', 'corpora');

/** A temporary directory removed after the test (and, failing that, when the test file's process exits). */
export function tempDir(t: { after: (fn: () => void) => void }, prefix = 'build-test-'): string {
  const dir = makeTempDir(prefix);
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A writable copy of the sample corpus. */
export function copySample(dir: string): string {
  const target = path.join(dir, 'corpora');
  cpSync(SAMPLE_DIR, target, { recursive: true });
  return target;
}

export function buildSample(corpora: string, out: string, date = '2026-01-01', workers?: number): Promise<BuildResult> {
  return buildSnapshot({ out, corpora, date, workers });
}

export function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

export function writeJson(file: string, value: unknown): void {
  writeFileSync(file, JSON.stringify(value));
}

export interface IdentityRow {
  key: string;
  id: number;
  slug: string;
}

/** language|exactForm|pos|etymology → {id, slug} of every entry in a snapshot. */
export function identities(snapshot: string): Map<string, IdentityRow> {
  const db = new Database(snapshot, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT e.id AS id, e.slug AS slug, j.body AS body FROM entries e JOIN entry_json j ON j.global_rank = e.global_rank').all() as { id: number; slug: string; body: string }[];
    return new Map(
      rows.map((r) => {
        const e = JSON.parse(r.body) as { language: string; exactForm: string; partOfSpeech: string; etymologyNumber: number | null };
        const key = `${e.language}|${e.exactForm}|${e.partOfSpeech}|${e.etymologyNumber ?? ''}`;
        return [key, { key, id: r.id, slug: r.slug }];
      }),
    );
  } finally {
    db.close();
  }
}
