// Whether metering.db takes commits, as the workers' /healthz reports it (through ping): a write that failed
// for lack of space or with an I/O error marks it failing from that commit on, until a probe commit succeeds.
// The cause is logged once per failure, not per request. A storage error no wait can mend (a damaged file, a
// read-only disk) is fatal: the process ends so that pm2 restarts it with back-off, and it comes back by itself
// once the cause is gone.
import type { Db } from './db/open.ts';
import type { Log } from './log.ts';

/** While failing, a probe commit this often: recovery is seen within it once space is freed. */
export const FAILING_PROBE_INTERVAL_MS = 2_000;
/** While healthy, a probe commit when nothing was written for this long: a disk that filled while idle shows. */
export const IDLE_PROBE_INTERVAL_MS = 30_000;
/** A failure of the same cause within this long of the last one logged is not logged again (flapping). */
const RELOG_AFTER_MS = 600_000;

/**
 * SQLite's answer to ENOSPC (and to a database at its size limit), and its I/O errors: a write, fsync or -shm
 * growth that failed (ENOSPC shows as SQLITE_IOERR_WRITE, _FSYNC or _SHMSIZE where SQLite does not map it to
 * SQLITE_FULL) may succeed once space is back; a restart would meet the same disk and lose the leases in flight.
 */
const TRANSIENT_PREFIXES = ['SQLITE_FULL', 'SQLITE_IOERR'];
/** Result codes (and their extended forms) that mean the file cannot be used as it is. */
const FATAL_PREFIXES = ['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_READONLY', 'SQLITE_CANTOPEN', 'SQLITE_PERM'];

const hasPrefix = (code: string, prefixes: readonly string[]) => prefixes.some((prefix) => code === prefix || code.startsWith(`${prefix}_`));

export type StorageFault = 'transient' | 'fatal';

/** Whether `error` is a storage fault, and which kind; undefined for anything else (a busy lock, a bug). */
export function storageFault(error: unknown): StorageFault | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  if (hasPrefix(code, TRANSIENT_PREFIXES)) return 'transient';
  return hasPrefix(code, FATAL_PREFIXES) ? 'fatal' : undefined;
}

/** An error's SQLite code and message, as the log and the health report give it. */
export function describeStorageError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' ? `${code}: ${message}` : message;
}

export interface StorageStatus {
  canCommit: boolean;
  /** SQLite's code and message of the failure, while failing. */
  error: string | null;
  /** When the current state began (ISO 8601). */
  since: string;
}

export interface StorageHealthOptions {
  db: Db;
  log: Log;
  now: () => number;
  /** Called once with a fatal storage error; the process passes one that logs and exits. */
  onFatal: (error: unknown) => void;
}

export class StorageHealth {
  #failure: { error: string; code: string } | undefined;
  #since: number;
  #lastLogged: { code: string; at: number } | undefined;
  #lastWriteAt: number;
  #fatal = false;
  readonly #probe: () => void;
  readonly #timer: NodeJS.Timeout;

  constructor(private readonly o: StorageHealthOptions) {
    this.#since = o.now();
    this.#lastWriteAt = o.now();
    const upsert = o.db.prepare<[number]>(
      'INSERT INTO storage_probe (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at',
    );
    this.#probe = () => void upsert.run(this.o.now());
    // One timer ticking at the failing rate; while healthy it probes only after IDLE_PROBE_INTERVAL_MS without a write.
    this.#timer = setInterval(() => this.#tick(), FAILING_PROBE_INTERVAL_MS);
    this.#timer.unref();
  }

  status(): StorageStatus {
    return { canCommit: this.#failure === undefined, error: this.#failure?.error ?? null, since: new Date(this.#since).toISOString() };
  }

  /** A request's write committed. */
  committed(): void {
    this.#lastWriteAt = this.o.now();
    if (this.#failure !== undefined) this.#recovered();
  }

  /**
   * Reports a failed request: true when it was a storage fault (already logged once here, and fatal ones handed
   * to onFatal), so that the caller answers without logging it per request.
   */
  failed(error: unknown): boolean {
    const fault = storageFault(error);
    if (fault === undefined) return false;
    if (fault === 'fatal') {
      if (!this.#fatal) {
        this.#fatal = true;
        this.o.onFatal(error);
      }
      return true;
    }
    this.#lastWriteAt = this.o.now();
    if (this.#failure === undefined) {
      const code = String((error as { code: string }).code);
      this.#failure = { error: describeStorageError(error), code };
      this.#since = this.o.now();
      const last = this.#lastLogged;
      if (last === undefined || last.code !== code || this.o.now() - last.at > RELOG_AFTER_MS) {
        this.#lastLogged = { code, at: this.o.now() };
        this.o.log.error({
          msg: 'metering.db cannot commit: registrations and new quota leases fail until this is resolved (free space in DATA_DIR, or check the disk)',
          error: this.#failure.error,
        });
      }
    }
    return true;
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  #tick(): void {
    if (this.#failure === undefined && this.o.now() - this.#lastWriteAt < IDLE_PROBE_INTERVAL_MS) return;
    try {
      this.#probe();
      this.committed();
    } catch (error) {
      if (!this.failed(error)) this.o.log.error({ msg: 'storage probe failed', error: describeStorageError(error) });
    }
  }

  #recovered(): void {
    const was = this.#failure?.error;
    this.#failure = undefined;
    this.#since = this.o.now();
    this.o.log.info({ msg: 'metering.db commits again', after: was });
  }
}
