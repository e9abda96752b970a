// openSnapshot(): the read-only Snapshot over a SQLite file written by the build (snapshot/compiler/pipeline.ts).
import { realpathSync } from 'node:fs';

import Database from 'better-sqlite3';

import type { Entry, Language } from '../../services/shared/schemas.ts';
import { ANY_FILTER, BODY, META, SNAPSHOT_FORMAT_VERSION } from '../format/format.ts';
import { cyclePosition, wordOfTheDayBody } from '../format/word-of-the-day.ts';
import { openDownloads } from './downloads.ts';
import type { Downloads } from './downloads.ts';
import { SnapshotSearch } from './search.ts';
import type { SearchOptions } from './search.ts';
import type { BrowseLetter, CorpusSource, SearchPage, SearchQuery, Snapshot, SnapshotMeta } from './snapshot.ts';

/** Memory-map the file: read-only pages are shared between worker processes through the page cache. */
const MMAP_BYTES = 512 * 1024 * 1024;

export class SnapshotFormatError extends Error {
  override readonly name = 'SnapshotFormatError';
}

/** How the search is set up (SearchOptions): tests lower the summary budget to reach the summaries read per row. */
export type OpenOptions = SearchOptions;

export function openSnapshot(path: string, options: OpenOptions = {}): Snapshot {
  // current.sqlite is a link that a publish switches: the file it names now is the one opened, and its
  // downloads are the ones beside that file, whatever the link names a moment later.
  const file = realFile(path);
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return new SqliteSnapshot(db, path, file, options);
  } catch (error) {
    db.close();
    throw error;
  }
}

function realFile(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path; // missing: better-sqlite3 says so
  }
}

class SqliteSnapshot implements Snapshot {
  readonly meta: SnapshotMeta;
  private readonly languageList: readonly Language[];
  private readonly languagesBody: string;
  private readonly statsBody: string;
  private readonly sourceList: readonly CorpusSource[] | undefined;
  private readonly searcher: SnapshotSearch;
  private readonly byId: Database.Statement<[number], { body: string }>;
  private readonly bySlug: Database.Statement<[string], { body: string }>;
  private readonly wotdBody: Database.Statement<[string, string], { body: string }>;
  private readonly wotdCycle: Database.Statement<[string, number], { body: string; language: string }>;
  private readonly cycleLengths = new Map<string, number>();
  private readonly downloadFiles: Downloads;

  constructor(
    private readonly db: Database.Database,
    path: string,
    file: string,
    options: OpenOptions,
  ) {
    db.pragma(`mmap_size = ${MMAP_BYTES}`);
    // A snapshot file is never written after the build renames it into place (a publish writes a new file),
    // so the shared lock can be held for the connection's life. In the default NORMAL mode every statement
    // takes and drops it and re-checks the file change counter: fcntl and read syscalls that would cost about
    // as much as the statement itself (the bench's bare loop measures a search).
    db.pragma('locking_mode = EXCLUSIVE');
    const meta = new Map(
      (db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]),
    );
    const formatVersion = Number(meta.get(META.formatVersion));
    if (formatVersion !== SNAPSHOT_FORMAT_VERSION) {
      throw new SnapshotFormatError(`${path}: snapshot format ${formatVersion}, this reader needs ${SNAPSHOT_FORMAT_VERSION}; rebuild it`);
    }
    this.meta = {
      version: meta.get(META.version) ?? '',
      formatVersion,
      contentHash: meta.get(META.contentHash) ?? '',
      builtAt: meta.get(META.builtAt) ?? '',
      sample: meta.get(META.sample) === 'true',
      path,
    };
    const body = db.prepare<[string], { body: string }>('SELECT body FROM bodies WHERE name = ?');
    this.languagesBody = body.get(BODY.languages)?.body ?? '{"data":[]}';
    this.statsBody = body.get(BODY.stats)?.body ?? '{}';
    // A snapshot may lack the list: /about then falls back to the entries' sources.
    const sourcesBody = body.get(BODY.sources)?.body;
    this.sourceList = sourcesBody === undefined ? undefined : (JSON.parse(sourcesBody) as CorpusSource[]);
    this.languageList = (JSON.parse(this.languagesBody) as { data: Language[] }).data;
    this.searcher = new SnapshotSearch(db, { ...options, commonEntries: Number(meta.get(META.commonEntries) ?? 0) });
    // One index lookup (id or slug) and one rowid lookup of the stored body.
    this.byId = db.prepare('SELECT j.body AS body FROM entries e JOIN entry_json j ON j.global_rank = e.global_rank WHERE e.id = ?');
    this.bySlug = db.prepare('SELECT j.body AS body FROM entries e JOIN entry_json j ON j.global_rank = e.global_rank WHERE e.slug = ?');
    this.wotdBody = db.prepare('SELECT body FROM wotd WHERE language = ? AND date = ?');
    this.wotdCycle = db.prepare(
      'SELECT j.body AS body, e.language AS language FROM wotd_cycle c JOIN entries e ON e.global_rank = c.global_rank JOIN entry_json j ON j.global_rank = c.global_rank WHERE c.language = ? AND c.position = ?',
    );
    for (const row of db.prepare('SELECT language, count(*) AS n FROM wotd_cycle GROUP BY language').all() as { language: string; n: number }[]) {
      this.cycleLengths.set(row.language, row.n);
    }
    this.downloadFiles = openDownloads(file, this.meta.version);
  }

  languages(): readonly Language[] {
    return this.languageList;
  }

  findActiveLanguage(value: string): Language | undefined {
    const v = value.trim().toLowerCase();
    return this.languageList.find((l) => l.status === 'active' && (l.code === v || l.slug === v));
  }

  browseLetters(language: string): readonly BrowseLetter[] {
    return this.searcher.browseLetters(language);
  }

  search(query: SearchQuery): SearchPage {
    return this.searcher.search(query);
  }

  entryJson(idOrSlug: string): string | undefined {
    if (/^\d{1,16}$/.test(idOrSlug)) {
      const id = Number(idOrSlug);
      return Number.isSafeInteger(id) ? this.byId.get(id)?.body : undefined;
    }
    return this.bySlug.get(idOrSlug)?.body;
  }

  languagesJson(): string {
    return this.languagesBody;
  }

  statsJson(): string {
    return this.statsBody;
  }

  wordOfTheDayJson(language: string | null, date: string): string | undefined {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined;
    const time = Date.parse(`${date}T00:00:00Z`);
    if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== date) return undefined;
    const key = language ?? ANY_FILTER;
    const ready = this.wotdBody.get(key, date);
    if (ready) return ready.body;
    // Outside the materialised window the same cycle still defines the day (see docs/snapshot.md).
    const length = this.cycleLengths.get(key);
    if (!length) return undefined;
    const row = this.wotdCycle.get(key, cyclePosition(date, length));
    return row && wordOfTheDayBody(date, row.language, row.body);
  }

  sources(): readonly CorpusSource[] | undefined {
    return this.sourceList;
  }

  entry(idOrSlug: string): Entry | undefined {
    const json = this.entryJson(idOrSlug);
    return json === undefined ? undefined : (JSON.parse(json) as Entry);
  }

  downloads(): Downloads {
    return this.downloadFiles;
  }

  close(): void {
    this.downloadFiles.close();
    if (this.db.open) this.db.close();
  }
}
