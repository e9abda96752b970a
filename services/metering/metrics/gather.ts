// Asks every API worker for its metric families over NATS and keeps the well-formed replies.
import { RequestStrategy } from 'nats';

import { tryDecodeJson } from '../../shared/metering-protocol/client.ts';
import { collectReply, METRICS_SUBJECT } from '../../shared/metrics/protocol.ts';

import type { NatsConnection } from 'nats';
import type { CollectReply } from '../../shared/metrics/protocol.ts';

/** Longest a scrape waits for the first worker's answer. */
export const GATHER_MAX_WAIT_MS = 1_000;
/**
 * After each answer, how long to wait for another: workers answer within a few ms of each other, and one
 * busier than this is left out of this scrape (dict_metrics_workers_reporting says so).
 */
export const GATHER_JITTER_MS = 250;

export async function gatherWorkers(nc: NatsConnection): Promise<CollectReply[]> {
  const replies: CollectReply[] = [];
  try {
    const answers = await nc.requestMany(METRICS_SUBJECT, undefined, {
      strategy: RequestStrategy.JitterTimer,
      maxWait: GATHER_MAX_WAIT_MS,
      jitter: GATHER_JITTER_MS,
    });
    for await (const msg of answers) {
      const parsed = collectReply.safeParse(tryDecodeJson(msg.data));
      if (parsed.success) replies.push(parsed.data);
    }
  } catch {
    // No worker listening, or NATS down: the scrape shows the metering process alone.
  }
  return replies;
}
