// --if-changed: is the existing snapshot built from exactly these inputs with this format version, its downloads beside it?
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import Database from 'better-sqlite3';

import { DOWNLOADS_INDEX_NAME, DownloadIndexSchema, downloadsDirOf } from '../format/downloads.ts';
import { META, SNAPSHOT_FORMAT_VERSION } from '../format/format.ts';
import { inputChecksums, locateCorpora } from './inputs.ts';
import { loadManifests, sourceFiles } from './manifest.ts';

export function snapshotIsCurrent(out: string, corpora: string | undefined, corporaEnv: string | undefined): boolean {
  if (!existsSync(out)) return false;
  let recorded: Map<string, string>;
  try {
    const db = new Database(out, { readonly: true, fileMustExist: true });
    try {
      const rows = db.prepare('SELECT key, value FROM meta WHERE key IN (?, ?, ?)').raw().all(META.formatVersion, META.inputsChecksum, META.version) as [string, string][];
      recorded = new Map(rows);
    } finally {
      db.close();
    }
  } catch {
    return false; // unreadable or not a snapshot: rebuild
  }
  if (recorded.get(META.formatVersion) !== String(SNAPSHOT_FORMAT_VERSION)) return false;
  if (downloadsVersion(out) !== recorded.get(META.version)) return false;
  const location = locateCorpora(corpora, corporaEnv);
  const { sources } = loadManifests(location.sourcesFile, location.languagesFile);
  try {
    return inputChecksums(location, sourceFiles(sources)).combined === recorded.get(META.inputsChecksum);
  } catch {
    return false; // a source vanished: let the build report it
  }
}

/** The version the snapshot's downloads index names; undefined when it is missing or unreadable (rebuild). */
function downloadsVersion(out: string): string | undefined {
  try {
    const raw: unknown = JSON.parse(readFileSync(path.join(downloadsDirOf(out), DOWNLOADS_INDEX_NAME), 'utf8'));
    return DownloadIndexSchema.parse(raw).version;
  } catch {
    return undefined;
  }
}
