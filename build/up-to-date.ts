// --if-changed: is the existing snapshot built from exactly these inputs with this format version?
import { existsSync } from 'node:fs';

import Database from 'better-sqlite3';

import { SNAPSHOT_FORMAT_VERSION } from '../services/shared/snapshot/format.ts';
import { inputChecksums, locateCorpora } from './inputs.ts';
import { loadManifests, sourceFiles } from './manifest.ts';

export function snapshotIsCurrent(out: string, corpora: string | undefined, corporaEnv: string | undefined): boolean {
  if (!existsSync(out)) return false;
  let recorded: { formatVersion?: string; inputsChecksum?: string };
  try {
    const db = new Database(out, { readonly: true, fileMustExist: true });
    try {
      const rows = db.prepare("SELECT key, value FROM meta WHERE key IN ('formatVersion', 'inputsChecksum')").all() as { key: string; value: string }[];
      recorded = Object.fromEntries(rows.map((r) => [r.key, r.value]));
    } finally {
      db.close();
    }
  } catch {
    return false; // unreadable or not a snapshot: rebuild
  }
  if (recorded.formatVersion !== String(SNAPSHOT_FORMAT_VERSION)) return false;
  const location = locateCorpora(corpora, corporaEnv);
  const { sources } = loadManifests(location.sourcesFile, location.languagesFile);
  try {
    return inputChecksums(location, sourceFiles(sources)).combined === recorded.inputsChecksum;
  } catch {
    return false; // a source vanished: let the build report it
  }
}
