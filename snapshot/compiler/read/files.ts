// Synchronous streaming readers for source files: lines, and the entries of one big top-level JSON object.
import { closeSync, openSync, readSync } from 'node:fs';

import { FormatError } from './errors.ts';

const CHUNK_BYTES = 1 << 20;

function* chunks(file: string): Generator<Buffer> {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    for (;;) {
      const n = readSync(fd, buffer, 0, CHUNK_BYTES, null);
      if (n === 0) return;
      yield buffer.subarray(0, n);
    }
  } finally {
    closeSync(fd);
  }
}

/** Lines of a UTF-8 file without holding it in memory (split on LF bytes, so no character is cut). */
export function* readLines(file: string): Generator<string> {
  let rest: Buffer = Buffer.alloc(0);
  for (const chunk of chunks(file)) {
    let data = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    for (let i = data.indexOf(10, start); i !== -1; i = data.indexOf(10, start)) {
      yield data.toString('utf8', start, i);
      start = i + 1;
    }
    rest = Buffer.from(data.subarray(start));
    data = Buffer.alloc(0);
  }
  if (rest.length > 0) yield rest.toString('utf8');
}

/** The lines of a text file without their line ends (LF, or CRLF as Windows tools write it). */
export function readTextLines(file: string): string[] {
  return [...readLines(file)].map((l) => l.replace(/\r$/, ''));
}

/**
 * The records of a file holding one JSON object whose every value is an array of records (key → [record]),
 * each with its key, one value parsed at a time (readJsonObjectEntries).
 */
export function* readJsonRecordLists(file: string): Generator<[key: string, record: unknown]> {
  for (const [key, value] of readJsonObjectEntries(file)) {
    if (!Array.isArray(value)) throw new FormatError(`${file}: not its format (value of key ${JSON.stringify(key)} is not an array of records)`);
    for (const record of value) yield [key, record];
  }
}

const enum State {
  Start,
  KeyOrEnd,
  Key,
  Colon,
  ValueStart,
  Value,
  CommaOrEnd,
  Done,
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

/**
 * Streams `[key, value]` pairs of a file holding one JSON object, parsing one value at a time, so a
 * multi-hundred-megabyte dictionary never sits in memory whole. Throws FormatError (naming the file and
 * byte offset) when the file is not one JSON object.
 */
export function* readJsonObjectEntries(file: string): Generator<[string, unknown]> {
  const scanner = new ObjectScanner(file);
  for (const chunk of chunks(file)) yield* scanner.feed(chunk);
  scanner.end();
}

/**
 * One JSON object scanned chunk by chunk. A key's or value's bytes are gathered (across chunks) until it ends,
 * found by counting brackets outside strings, and only then parsed: JSON.parse never sees more than one value.
 */
class ObjectScanner {
  private state = State.Start;
  /** Offset in the file of the chunk being fed, for the error messages. */
  private base = 0;
  /** The current key's or value's bytes from earlier chunks, and where it starts in this one (-1: none). */
  private parts: Buffer[] = [];
  private partStart = -1;
  private key = '';
  /** Inside the value: open brackets, and whether in a string or just after a backslash in one. */
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** A number or literal that the object's closing brace ended (not a bracket of the value's own). */
  private atObjectEnd = false;
  /** Before the first significant byte, where a UTF-8 byte order mark (EF BB BF) is skipped. */
  private first = true;

  constructor(private readonly file: string) {}

  *feed(chunk: Buffer): Generator<[string, unknown]> {
    this.partStart = this.state === State.Key || this.state === State.Value ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      if (this.state === State.Value) {
        i = this.scanValue(chunk, i);
        if (i < chunk.length) yield this.endValue(chunk, i);
      } else if (this.state === State.Key) {
        i = this.scanKey(chunk, i);
      } else if (this.structure(chunk[i], i)) {
        i -= 1; // a value starts here: its first byte is scanned as part of it
      }
    }
    if (this.partStart !== -1 && (this.state === State.Key || this.state === State.Value)) this.parts.push(Buffer.from(chunk.subarray(this.partStart)));
    this.base += chunk.length;
  }

  end(): void {
    if (this.state !== State.Done) this.fail('unexpected end of file', 0);
  }

  /** A byte between keys and values; true when it starts a value (state Value, not yet scanned). */
  private structure(b: number, i: number): boolean {
    switch (this.state) {
      case State.Start:
        if (this.first && (b === 0xef || b === 0xbb || b === 0xbf)) return false;
        if (isSpace(b)) return false;
        this.first = false;
        if (b !== OPEN_BRACE) this.fail('expected "{"', i);
        this.state = State.KeyOrEnd;
        return false;
      case State.KeyOrEnd:
        if (isSpace(b)) return false;
        if (b === CLOSE_BRACE) this.state = State.Done;
        else if (b === QUOTE) {
          this.state = State.Key;
          this.partStart = i;
          this.escaped = false;
        } else this.fail('expected a key', i);
        return false;
      case State.Colon:
        if (isSpace(b)) return false;
        if (b !== COLON) this.fail('expected ":"', i);
        this.state = State.ValueStart;
        return false;
      case State.ValueStart:
        if (isSpace(b)) return false;
        this.state = State.Value;
        this.partStart = i;
        this.depth = 0;
        this.inString = false;
        this.escaped = false;
        return true;
      case State.CommaOrEnd:
        if (isSpace(b)) return false;
        if (b === COMMA) this.state = State.KeyOrEnd;
        else if (b === CLOSE_BRACE) this.state = State.Done;
        else this.fail('expected "," or "}"', i);
        return false;
      default:
        if (!isSpace(b)) this.fail('trailing data after the object', i);
        return false;
    }
  }

  /** Scans the key from `from`; returns where it ended (its closing quote, parsed) or the chunk's end. */
  private scanKey(chunk: Buffer, from: number): number {
    for (let i = from; i < chunk.length; i++) {
      const b = chunk[i];
      if (this.escaped) this.escaped = false;
      else if (b === BACKSLASH) this.escaped = true;
      else if (b === QUOTE) {
        this.parts.push(chunk.subarray(this.partStart, i + 1));
        this.key = JSON.parse(this.take()) as string;
        this.partStart = -1;
        this.state = State.Colon;
        return i;
      }
    }
    return chunk.length;
  }

  /**
   * Scans the value from `from`; returns the index of the byte that ends it (a closing quote or bracket that
   * balances it, or the comma, space or object's closing brace after a number or literal), or the chunk's end.
   */
  private scanValue(chunk: Buffer, from: number): number {
    for (let i = from; i < chunk.length; i++) {
      const b = chunk[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (b === BACKSLASH) this.escaped = true;
        else if (b === QUOTE) {
          this.inString = false;
          if (this.depth === 0) return i;
        }
      } else if (b === QUOTE) this.inString = true;
      else if (b === OPEN_BRACE || b === OPEN_BRACKET) this.depth += 1;
      else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
        if (this.depth === 0) {
          this.atObjectEnd = true;
          return i;
        }
        if (--this.depth === 0) return i;
      } else if (this.depth === 0 && (b === COMMA || isSpace(b))) return i;
    }
    return chunk.length;
  }

  /** The value that ends at byte `i` (see scanValue), with its key. */
  private endValue(chunk: Buffer, i: number): [string, unknown] {
    const b = chunk[i];
    const closesObject = this.atObjectEnd;
    this.atObjectEnd = false;
    // A string or container ends at its closing byte; a number or literal before the byte that ends it.
    const literalEnd = closesObject || b === COMMA || isSpace(b);
    this.parts.push(chunk.subarray(this.partStart, literalEnd ? i : i + 1));
    const pair: [string, unknown] = [this.key, this.parseValue(this.take(), i)];
    this.partStart = -1;
    this.state = closesObject ? State.Done : b === COMMA ? State.KeyOrEnd : State.CommaOrEnd;
    return pair;
  }

  private take(): string {
    const text = Buffer.concat(this.parts).toString('utf8');
    this.parts = [];
    return text;
  }

  private parseValue(text: string, i: number): unknown {
    try {
      return JSON.parse(text);
    } catch {
      return this.fail('invalid JSON value', i);
    }
  }

  private fail(what: string, i: number): never {
    throw new FormatError(`${this.file}: not a JSON object of records (${what} at byte ${this.base + i})`);
  }
}
