// One replicated database: its changes appended to a JetStream stream (3 replicas) before a commit is
// acknowledged, and the stream's messages of other writers applied to it. The append expects the stream's last
// sequence to be the one this copy holds, so two writers can never both append on the same state: the second
// is refused, catches up and runs its writes again on the state the first left.
import { DeliverPolicy, RetentionPolicy, StorageType, type JetStreamClient, type JetStreamManager, type NatsConnection } from 'nats';

import { encodeJson, tryDecodeJson } from '../../shared/metering-protocol/client.ts';
import type { Log } from '../log.ts';
import { changesSchema, type Change, type ChangeCapture } from './changes.ts';

/** How long an append waits for the stream's acknowledgement; the caller is then answered `unavailable`. */
export const APPEND_TIMEOUT_MS = 2000;
/**
 * How long a JetStream API request (stream info, a consumer's creation) waits: while a stream elects a leader it
 * answers nothing, and a short wait lets the next try come sooner.
 */
export const JETSTREAM_API_TIMEOUT_MS = 2000;
/** Messages read per fetch while catching up. */
const CATCH_UP_BATCH = 512;
const FETCH_EXPIRES_MS = 1000;
const NS_PER_MS = 1_000_000;

/** The stream moved on since this copy's state: another writer appended (a deposed leader learns it here). */
export class LogMovedOnError extends Error {
  override readonly name = 'LogMovedOnError';
}

/** The stream could not take the append (no quorum, a timeout): nothing is acknowledged, the caller fails closed. */
export class ReplicationUnavailableError extends Error {
  override readonly name = 'ReplicationUnavailableError';
}

export interface StreamSpec {
  name: string;
  subject: string;
  /** Messages older than this are dropped (0: kept for good). */
  maxAgeMs: number;
}

export class Replica {
  readonly capture: ChangeCapture;
  readonly stream: StreamSpec;
  readonly #js: JetStreamClient;
  readonly #jsm: JetStreamManager;
  readonly #log: Log;
  #turn: Promise<unknown> = Promise.resolve();
  #following: { stop(): void } | undefined;
  #closed = false;

  constructor(nc: NatsConnection, jsm: JetStreamManager, capture: ChangeCapture, stream: StreamSpec, log: Log) {
    this.#js = nc.jetstream({ timeout: JETSTREAM_API_TIMEOUT_MS });
    this.#jsm = jsm;
    this.capture = capture;
    this.stream = stream;
    this.#log = log;
  }

  /** Creates the stream if it is missing (every process does so at start; the same config is accepted twice). */
  async ensureStream(replicas: number): Promise<void> {
    const config = {
      name: this.stream.name,
      subjects: [this.stream.subject],
      num_replicas: replicas,
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      max_age: this.stream.maxAgeMs * NS_PER_MS,
    };
    try {
      await this.#jsm.streams.info(this.stream.name);
    } catch {
      await this.#jsm.streams.add(config);
    }
  }

  /** Runs `fn` after every earlier exclusive call: this copy's group commits and applies never interleave. */
  exclusive<T>(fn: () => Promise<T> | T): Promise<T> {
    const next = this.#turn.then(fn, fn);
    this.#turn = next.catch(() => undefined);
    return next;
  }

  /** Appends one group's changes on top of `expected`; the stream's sequence of the message. */
  async append(changes: readonly Change[], expected: number): Promise<number> {
    try {
      const ack = await this.#js.publish(this.stream.subject, encodeJson(changes), {
        expect: { lastSequence: expected, streamName: this.stream.name },
        timeout: APPEND_TIMEOUT_MS,
      });
      return ack.seq;
    } catch (error) {
      if (/wrong last sequence/i.test((error as Error).message)) throw new LogMovedOnError(`stream ${this.stream.name} is past ${expected}`);
      throw new ReplicationUnavailableError(`stream ${this.stream.name} did not take the append: ${(error as Error).message}`);
    }
  }

  /** Applies the stream's messages this copy lacks, up to the stream's last one when called (exclusive). */
  catchUp(): Promise<void> {
    return this.exclusive(() => this.catchUpNow());
  }

  /** As catchUp, inside an exclusive turn already held (a group commit refused by the stream). */
  async catchUpNow(): Promise<void> {
    try {
      await this.#readToEnd();
    } catch (error) {
      // A stream electing its leader answers nothing: the caller fails closed and the next try catches up.
      throw new ReplicationUnavailableError(`stream ${this.stream.name} cannot be read: ${(error as Error).message}`);
    }
  }

  async #readToEnd(): Promise<void> {
    const state = (await this.#jsm.streams.info(this.stream.name)).state;
    if (this.capture.applied() >= state.last_seq) return;
    const consumer = await this.#js.consumers.get(this.stream.name, {
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: this.capture.applied() + 1,
    });
    while (this.capture.applied() < state.last_seq) {
      let read = 0;
      const messages = await consumer.fetch({ max_messages: CATCH_UP_BATCH, expires: FETCH_EXPIRES_MS });
      for await (const m of messages) {
        read++;
        this.#applyMessage(m.seq, m.data);
        if (m.seq >= state.last_seq) break;
      }
      // The messages left were dropped by age (the shards' streams): nothing more to read up to the last one.
      if (read === 0) this.capture.apply(state.last_seq, []);
    }
  }

  /** Applies other writers' messages as they come, from this copy's position, until close(). */
  follow(): void {
    if (this.#following !== undefined || this.#closed) return;
    let stopped = false;
    let current: { stop(): void } | undefined;
    this.#following = {
      stop() {
        stopped = true;
        current?.stop();
      },
    };
    // One line per streak of failures (a stream electing its leader fails every try for seconds).
    let failing = false;
    const run = async () => {
      while (!stopped) {
        try {
          const consumer = await this.#js.consumers.get(this.stream.name, {
            deliver_policy: DeliverPolicy.StartSequence,
            opt_start_seq: this.capture.applied() + 1,
          });
          const messages = await consumer.consume({ max_messages: CATCH_UP_BATCH });
          current = messages;
          if (stopped) messages.stop();
          for await (const m of messages) {
            failing = false;
            await this.exclusive(() => this.#applyMessage(m.seq, m.data));
          }
        } catch (error) {
          if (!stopped && !failing) this.#log.error({ msg: 'following the metering stream failed; trying again', stream: this.stream.name, error: (error as Error).message });
          failing = true;
        }
        if (!stopped) await new Promise((r) => setTimeout(r, 250));
      }
    };
    void run();
  }

  close(): void {
    this.#closed = true;
    this.#following?.stop();
    this.#following = undefined;
  }

  #applyMessage(seq: number, data: Uint8Array): void {
    const parsed = changesSchema.safeParse(tryDecodeJson(data));
    if (!parsed.success) {
      // Only metering processes may publish here (the bus's permissions); a message that is not ours is skipped.
      this.#log.error({ msg: 'skipping a stream message that is not a change list', stream: this.stream.name, seq });
      this.capture.apply(seq, []);
      return;
    }
    this.capture.apply(seq, parsed.data);
  }
}
