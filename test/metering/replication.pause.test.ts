// A deposed leader in replicated metering: the serving process is paused (SIGSTOP) past its lease under load, the
// other host's process takes the shards, and the paused one is resumed with lease requests still queued for it.
// Its appends are fenced, it learns it lost the leases, and no unit is granted twice or past the limit.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import type { NatsConnection } from 'nats';

import { call } from '../../services/shared/metering-protocol/client.ts';
import { utcDay } from '../../services/shared/metering-protocol/day.ts';
import { hashApiKey } from '../../services/shared/metering-protocol/keys.ts';
import { OPS } from '../../services/shared/metering-protocol/ops-protocol.ts';
import { RPC } from '../../services/shared/metering-protocol/protocol.ts';
import { type Range } from '../../services/shared/metering-protocol/ranges.ts';
import { leaseSubject, shardOf } from '../../services/shared/metering-protocol/subjects.ts';
import { DAILY_LIMITS } from '../../services/shared/plans.ts';
import { connectTo, spawnReplicatedMetering, startJetStreamCluster, type JetStreamCluster } from './replication-support.ts';
import { freshIp, type ChildMetering } from './support.ts';

const ENDPOINT = 'GET /api/v1/words';
const LEASE_TTL_MS = 2000;
/** Paused this long: the lease lapses and the other process serves for a while before the paused one resumes. */
const PAUSE_FOR_MS = LEASE_TTL_MS * 3;
const HOLDERS = 6;
/** A team key: its blocks (at most 1,000 units) last long enough for the load to outlast the pause. */
const LIMIT = DAILY_LIMITS.team;
const PAUSE_MS = 150;

describe('replicated metering with a paused leader', { timeout: 120_000 }, () => {
  let cluster: JetStreamCluster;
  const hosts: ChildMetering[] = [];
  let client: NatsConnection;

  before(async () => {
    cluster = await startJetStreamCluster();
  });
  after(async () => {
    await client?.close().catch(() => undefined);
    for (const host of hosts) {
      host.child.kill('SIGCONT');
      await host.kill9().catch(() => undefined);
    }
    await cluster?.stop();
  });

  test('replicated metering with a paused leader - the resumed leader is fenced and gives the shards up; no unit twice, none past the limit', async (t) => {
    hosts.push(await spawnReplicatedMetering(cluster.servers[0].url, undefined, LEASE_TTL_MS));
    client = await connectTo(cluster.servers[2].url);
    const { apiKey, developer } = await call(client, RPC.register, { input: { name: 'Pause', email: `pause-${Date.now()}@example.org` }, clientIp: freshIp() });
    await call(client, OPS.developersSetPlan, { email: developer.email, plan: 'team', allKeys: true });
    hosts.push(await spawnReplicatedMetering(cluster.servers[1].url, undefined, LEASE_TTL_MS));
    const keyHash = hashApiKey(apiKey);
    const granted: Range[] = [];
    const grantedAt: number[] = [];
    let pausedAt = 0;
    let resumedAt = 0;
    let stop = false;
    const holder = async (name: string) => {
      while (!stop) {
        try {
          const reply = await call(
            client,
            RPC.lease,
            { holder: name, worker: name, keyHash, endpoint: ENDPOINT, day: utcDay(Date.now()), requestId: randomBytes(8).toString('hex'), want: 1 },
            { subject: leaseSubject(shardOf(keyHash)), timeoutMs: 1000 },
          );
          if (reply.status === 'exhausted') return;
          if (reply.status === 'granted') {
            granted.push(...reply.ranges);
            grantedAt.push(Date.now());
          }
        } catch {
          // Not acknowledged (queued at the paused process, or between leaders).
        }
        await sleep(PAUSE_MS);
      }
    };
    const pauser = async () => {
      await sleep(300);
      hosts[0].child.kill('SIGSTOP');
      pausedAt = Date.now();
      await sleep(PAUSE_FOR_MS);
      hosts[0].child.kill('SIGCONT');
      resumedAt = Date.now();
      // Until the resumed process has heard that its leases are gone.
      const deadline = Date.now() + LEASE_TTL_MS * 5;
      while (!hosts[0].output().includes('shard lease lost') && Date.now() < deadline) await sleep(100);
      stop = true;
    };
    await Promise.all([pauser(), ...Array.from({ length: HOLDERS }, (_, i) => holder(`holder-${i}`))]);
    assert.match(hosts[0].output(), /shard lease lost/, 'the resumed process gave its shards up');
    const whilePaused = grantedAt.filter((at) => at > pausedAt && at < resumedAt).length;
    assert.ok(whilePaused > 0, 'the other process granted while the leader was paused');
    t.diagnostic(`${grantedAt.length} grants, ${whilePaused} while the leader was paused, ${grantedAt.filter((at) => at > resumedAt).length} after it resumed`);

    const seen = new Set<number>();
    for (const [from, to] of granted) {
      for (let unit = from; unit <= to; unit++) {
        assert.ok(unit >= 1 && unit <= LIMIT && !seen.has(unit), `unit ${unit} granted twice or outside 1..${LIMIT}`);
        seen.add(unit);
      }
    }
    const usage = await call(client, OPS.usage, { email: developer.email });
    const used = usage.rows.find((r) => r.endpoint === ENDPOINT)?.used ?? 0;
    assert.ok(used >= seen.size && used <= LIMIT, JSON.stringify({ used, acknowledged: seen.size }));
  });
});
