// One of a process's log streams (stdout or stderr: a pipe its supervisor, pm2, reads) with a bound on what
// may wait unwritten in memory. A reader that stops (paused, starved, a slow disk behind it) must not grow the
// process: request lines are dropped and counted while the stream is backed up, other lines are kept within a
// small reserve, and once the reader has caught up the process is told how many lines went missing.
import type { Writable } from 'node:stream';

/** What the output needs of a stream: process.stdout and process.stderr are pipes under pm2 (asynchronous). */
export type LogStream = Pick<Writable, 'write' | 'writableLength' | 'once'>;

/** Request lines are written only while the stream holds no more than this (characters) unwritten with them. */
export const REQUEST_QUEUE_LIMIT = 1024 * 1024;
/**
 * Other lines (start-up, warnings, errors) may fill the stream this much further: they are few, and the ones
 * that say what went wrong during a stall are worth more than the request lines of that time.
 */
export const OTHER_LINES_RESERVE = 256 * 1024;
/** Flush the waiting request lines early when this much (characters) waits. */
export const MAX_BATCH_CHARS = 64 * 1024;
/**
 * Longest a request line waits before it is written. Writing once per event-loop turn was still one pipe write
 * per couple of requests under load, and pm2's daemon wakes for each write it reads.
 */
export const FLUSH_INTERVAL_MS = 50;

/** Lines dropped while the stream was backed up. */
export interface DroppedLines {
  request: number;
  other: number;
}

export interface BoundedOutputOptions {
  requestQueueLimit?: number;
  otherLinesReserve?: number;
  /** Called once the stream has drained after lines were dropped, with what was dropped since the last call. */
  onCaughtUp?: (dropped: DroppedLines) => void;
}

export class BoundedOutput {
  /** Every line dropped since start (metrics read these). */
  readonly dropped: DroppedLines = { request: 0, other: 0 };
  readonly #stream: LogStream;
  readonly #requestLimit: number;
  readonly #otherLimit: number;
  readonly #onCaughtUp: (dropped: DroppedLines) => void;
  // Lines waiting, joined at the flush. Appending each line to one string instead built a rope of hundreds of
  // lines that the write had to flatten before encoding it, at several times the cost of the join.
  #pending: string[] = [];
  #pendingChars = 0;
  #scheduled = false;
  /** Set when a line is dropped; cleared by the stream's next 'drain' (its queue empty again). */
  #stalled = false;
  #unreported: DroppedLines = { request: 0, other: 0 };

  constructor(stream: LogStream, options: BoundedOutputOptions = {}) {
    this.#stream = stream;
    this.#requestLimit = options.requestQueueLimit ?? REQUEST_QUEUE_LIMIT;
    this.#otherLimit = this.#requestLimit + (options.otherLinesReserve ?? OTHER_LINES_RESERVE);
    this.#onCaughtUp = options.onCaughtUp ?? (() => undefined);
  }

  /** A request line: batched, and dropped (counted) while the stream is backed up. Runs once per request. */
  request(line: string): void {
    this.#pending.push(line);
    this.#pendingChars += line.length;
    if (this.#pendingChars >= MAX_BATCH_CHARS) this.flush();
    else if (!this.#scheduled) {
      this.#scheduled = true;
      setTimeout(() => this.flush(), FLUSH_INTERVAL_MS).unref();
    }
  }

  /** Any other line: written at once after the waiting request lines, dropped only beyond the reserve. */
  line(line: string): void {
    this.flush();
    if (this.#stream.writableLength + line.length > this.#otherLimit) this.#drop('other', 1);
    else this.#stream.write(line);
  }

  /** Writes the waiting request lines, unless the stream is backed up: then they are dropped. */
  flush(): void {
    this.#scheduled = false;
    const lines = this.#pending.length;
    if (lines === 0) return;
    const chunk = this.#pending.join('');
    this.#pending = [];
    this.#pendingChars = 0;
    // Once stalled, request lines wait for the drain: writing again as soon as the queue dips under the limit
    // would keep it full and the reserve spent.
    if (this.#stalled || this.#stream.writableLength + chunk.length > this.#requestLimit) this.#drop('request', lines);
    else this.#stream.write(chunk);
  }

  #drop(kind: keyof DroppedLines, lines: number): void {
    this.dropped[kind] += lines;
    this.#unreported[kind] += lines;
    if (this.#stalled) return;
    this.#stalled = true;
    // The queue is over the stream's high-water mark (16 KiB for a pipe, far below the bounds), so a write has
    // returned false and 'drain' will come once the reader has taken everything.
    this.#stream.once('drain', () => {
      this.#stalled = false;
      const dropped = this.#unreported;
      this.#unreported = { request: 0, other: 0 };
      this.#onCaughtUp(dropped);
    });
  }
}
