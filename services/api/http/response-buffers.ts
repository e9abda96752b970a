// What a worker holds for responses its clients do not read: the bytes of streamed chunks the socket has not taken
// yet, bounded per worker, and how long a response may go without the client taking any of them. A client that
// stops reading (or reads a few bytes a minute) is dropped, so that stalled downloads neither stay open for ever
// nor pin the worker's memory.

/** A response whose client takes none of its bytes for this long is dropped (its connection closed). */
export const DEFAULT_RESPONSE_STALL_MS = 30_000;
/**
 * The bytes a worker holds for unread responses at most (beside the chunk each one has in hand): a response
 * that would hold more while its client is not reading is dropped at once. 32 MiB is 512 downloads' chunks
 * (64 KiB, snapshot/reader/downloads.ts) against the 150 MB a worker is meant to stay under.
 */
export const DEFAULT_RESPONSE_BUFFER_BYTES = 32 * 1024 * 1024;

export type DropReason = 'stalled' | 'buffer_full';

export interface ResponseBufferOptions {
  stallMs?: number;
  maxBytes?: number;
}

export class ResponseBuffers {
  readonly stallMs: number;
  readonly maxBytes: number;
  /** Bytes held now for responses whose client has not taken them. */
  held = 0;
  /** The most held at once since start (the bound's test reads it). */
  peak = 0;
  readonly dropped: Record<DropReason, number> = { stalled: 0, buffer_full: 0 };

  constructor(options: ResponseBufferOptions = {}) {
    this.stallMs = options.stallMs ?? DEFAULT_RESPONSE_STALL_MS;
    this.maxBytes = options.maxBytes ?? DEFAULT_RESPONSE_BUFFER_BYTES;
  }

  /** Takes `bytes` for a response waiting on its client; false (nothing taken) when that would pass the bound. */
  hold(bytes: number): boolean {
    if (this.held + bytes > this.maxBytes) return false;
    this.held += bytes;
    if (this.held > this.peak) this.peak = this.held;
    return true;
  }

  release(bytes: number): void {
    this.held -= bytes;
  }

  drop(reason: DropReason): void {
    this.dropped[reason]++;
  }
}
