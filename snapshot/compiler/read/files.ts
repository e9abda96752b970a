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

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

/**
 * Streams `[key, value]` pairs of a file holding one JSON object, parsing one value at a time, so a
 * multi-hundred-megabyte dictionary never sits in memory whole. Throws FormatError (naming the file and
 * byte offset) when the file is not one JSON object.
 */
export function* readJsonObjectEntries(file: string): Generator<[string, unknown]> {
  let state = State.Start;
  let offset = 0;
  let parts: Buffer[] = [];
  let key = '';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let first = true;
  const fail = (what: string): never => {
    throw new FormatError(`${file}: not a JSON object of records (${what} at byte ${offset})`);
  };
  const take = (): string => {
    const text = Buffer.concat(parts).toString('utf8');
    parts = [];
    return text;
  };
  for (const chunk of chunks(file)) {
    let partStart = state === State.Key || state === State.Value ? 0 : -1;
    for (let i = 0; i < chunk.length; i++, offset++) {
      const b = chunk[i];
      switch (state) {
        case State.Start:
          if (first && b === 0xef) continue; // UTF-8 byte order mark (EF BB BF)
          if (first && (b === 0xbb || b === 0xbf)) continue;
          if (isSpace(b)) continue;
          first = false;
          if (b !== 0x7b) fail('expected "{"');
          state = State.KeyOrEnd;
          break;
        case State.KeyOrEnd:
          if (isSpace(b)) continue;
          if (b === 0x7d) state = State.Done;
          else if (b === 0x22) {
            state = State.Key;
            partStart = i;
            escaped = false;
          } else fail('expected a key');
          break;
        case State.Key:
          if (escaped) escaped = false;
          else if (b === 0x5c) escaped = true;
          else if (b === 0x22) {
            parts.push(chunk.subarray(partStart, i + 1));
            key = JSON.parse(take()) as string;
            partStart = -1;
            state = State.Colon;
          }
          break;
        case State.Colon:
          if (isSpace(b)) continue;
          if (b !== 0x3a) fail('expected ":"');
          state = State.ValueStart;
          break;
        case State.ValueStart:
          if (isSpace(b)) continue;
          state = State.Value;
          partStart = i;
          depth = 0;
          inString = false;
          escaped = false;
        // falls through: the first value byte is part of the value
        case State.Value: {
          if (inString) {
            if (escaped) escaped = false;
            else if (b === 0x5c) escaped = true;
            else if (b === 0x22) inString = false;
            if (inString || depth > 0) continue;
          } else if (b === 0x22) {
            inString = true;
            continue;
          } else if (b === 0x7b || b === 0x5b) {
            depth += 1;
            continue;
          } else if (b === 0x7d || b === 0x5d) {
            if (depth === 0) {
              // end of a literal value (number/true/false/null) at the object's closing brace
              parts.push(chunk.subarray(partStart, i));
              yield [key, parseValue(take(), fail)];
              partStart = -1;
              state = State.Done;
              continue;
            }
            depth -= 1;
            if (depth > 0) continue;
          } else if (depth > 0) continue;
          else if (b !== 0x2c && !isSpace(b)) continue;
          // The value ended: at this byte for strings/containers, before it for literals.
          const literalEnd = b === 0x2c || isSpace(b);
          parts.push(chunk.subarray(partStart, literalEnd ? i : i + 1));
          yield [key, parseValue(take(), fail)];
          partStart = -1;
          state = b === 0x2c ? State.KeyOrEnd : State.CommaOrEnd;
          break;
        }
        case State.CommaOrEnd:
          if (isSpace(b)) continue;
          if (b === 0x2c) state = State.KeyOrEnd;
          else if (b === 0x7d) state = State.Done;
          else fail('expected "," or "}"');
          break;
        case State.Done:
          if (!isSpace(b)) fail('trailing data after the object');
          break;
      }
    }
    if (partStart !== -1 && (state === State.Key || state === State.Value)) parts.push(Buffer.from(chunk.subarray(partStart)));
  }
  if (state !== State.Done) fail('unexpected end of file');
}

function parseValue(text: string, fail: (what: string) => never): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return fail('invalid JSON value');
  }
}
