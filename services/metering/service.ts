// The metering service: a named, versioned NATS service (queue group `metering`) whose endpoints are the
// protocol's subjects, each wired to its handler with zod validation and code+description errors.
import type { NatsConnection, Service, ServiceMsg } from 'nats';
import type { z } from 'zod';

import { call, encodeJson, tryDecodeJson } from '../shared/metering-protocol/client.ts';
import { utcDay } from '../shared/metering-protocol/day.ts';
import { OPS } from '../shared/metering-protocol/ops-protocol.ts';
import { ERROR_KIND_STATUS, RPC, reclaimReply, reclaimRequest, type Rpc } from '../shared/metering-protocol/protocol.ts';
import {
  KEYS_CHANGED_SUBJECT,
  leaseSubject,
  METERING_QUEUE,
  METERING_SERVICE_NAME,
  METERING_SERVICE_VERSION,
  reclaimSubject,
  releaseSubject,
  SHARD_COUNT,
} from '../shared/metering-protocol/subjects.ts';
import { ServiceFault, type MeteringContext, type Shard } from './context.ts';
import { GroupCommit } from './db/group-commit.ts';
import type { Db } from './db/open.ts';
import { handleLease } from './handlers/lease.ts';
import { handleBackup } from './handlers/ops/backup.ts';
import { handleDevelopersList } from './handlers/ops/developers.list.ts';
import { handleDevelopersSetPlan } from './handlers/ops/developers.set-plan.ts';
import { handleDevelopersShow } from './handlers/ops/developers.show.ts';
import { handleDevelopersReinstate, handleDevelopersSuspend } from './handlers/ops/developers.suspend.ts';
import { handleKeysExpire, handleKeysRevoke } from './handlers/ops/keys.revoke.ts';
import { handleKeysList } from './handlers/ops/keys.list.ts';
import { handleUsage } from './handlers/ops/usage.ts';
import { handlePing } from './handlers/ping.ts';
import { handleRegister } from './handlers/register.ts';
import { handleRelease } from './handlers/release.ts';
import { DEFAULT_USAGE_RETENTION_DAYS } from './config.ts';
import type { Log } from './log.ts';
import type { MeteringMetrics } from './metrics/metering-metrics.ts';
import { createAccounts } from './store/accounts.ts';
import { QuotaStore } from './store/quota.ts';
import { startUsageRetention } from './store/retention.ts';
import { createThrottle } from './store/throttle.ts';
import { LogMovedOnError, ReplicationUnavailableError } from './replication/replica.ts';
import type { ShardLeases } from './replication/shard-leases.ts';
import type { Replication } from './replication/start.ts';
import { createSerializer } from './serialize.ts';
import { describeStorageError, StorageHealth } from './storage-health.ts';

/** A holder that does not hand units back within this is treated as gone; its units stay counted. */
export const RECLAIM_TIMEOUT_MS = 250;
/** How often lease records of past days are dropped. */
const PRUNE_INTERVAL_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface MeteringServiceOptions {
  nc: NatsConnection;
  db: Db;
  /**
   * Every shard's quota database (db/shards.ts, openShardDbs), by shard number. Default: metering.db holds
   * every shard's quota (tests running the service in their own process).
   */
  shardDbs?: readonly Db[];
  log: Log;
  /** Injected clock (ms since epoch); the process passes Date.now. */
  now?: () => number;
  /** Counts each request by endpoint and outcome, with its handling time. */
  metrics?: MeteringMetrics;
  /** Days of daily usage kept (USAGE_RETENTION_DAYS); older rows are deleted at start and once a day. */
  usageRetentionDays?: number;
  /**
   * Metering processes sharing the shards, and this one's index (METERING_PROCESSES, NODE_APP_INSTANCE): it
   * serves the lease and release subjects of the shards whose number mod `processes` is `index`. Default: one.
   */
  processes?: number;
  index?: number;
  /**
   * A storage error no wait can mend (a damaged metering.db, a read-only or failing disk): the process passes
   * one that logs it and exits, so that pm2 restarts it with back-off. Default: logged only.
   */
  onFatalStorageError?: (error: unknown) => void;
  /**
   * The state replicated through JetStream (replication/start.ts): every commit is appended to its stream
   * first, and this process serves a shard's leases and releases only while it holds the shard's lease.
   * Default: none (one host, the shards served by `index`).
   */
  replication?: Replication;
}

export interface MeteringService {
  /** Stops taking requests and waits for the ones in progress. */
  stop(): Promise<void>;
}

type Handler<Req extends z.ZodTypeAny, Rep extends z.ZodTypeAny> = (ctx: MeteringContext, req: z.output<Req>) => z.input<Rep> | Promise<z.input<Rep>>;

/** The shards one process of `processes` serves. */
export function shardsOf(index: number, processes: number): number[] {
  return Array.from({ length: SHARD_COUNT }, (_, s) => s).filter((s) => s % processes === index);
}

export async function startMeteringService(options: MeteringServiceOptions): Promise<MeteringService> {
  const ctx = createContext(options);
  options.metrics?.watchStorage(() => ctx.storage.status());
  const srv = await options.nc.services.add({
    name: METERING_SERVICE_NAME,
    version: METERING_SERVICE_VERSION,
    description: 'API keys, registrations and leased daily quotas of the dictionary API',
    queue: METERING_QUEUE,
  });
  const inFlight = new Set<Promise<void>>();
  const adder =
    (service: Service): Add =>
    (name, rpc, handler, committed) => {
      service.addEndpoint(name, {
        subject: rpc.subject,
        handler: (err, msg) => {
          if (err) return options.log.error({ msg: 'endpoint error', endpoint: name, error: err.message });
          const started = performance.now();
          const metric = name.replace(/-\d+$/, '');
          const done = answer(ctx, name, rpc, handler, msg, committed)
            .then((outcome) => options.metrics?.request(metric, outcome, (performance.now() - started) / 1000))
            .finally(() => inFlight.delete(done));
          inFlight.add(done);
        },
      });
    };
  const { replication } = options;
  addEndpoints(adder(srv), replication === undefined ? shardsOf(options.index ?? 0, options.processes ?? 1) : []);
  await options.nc.flush();
  const leases = replication === undefined ? undefined : await serveLeasedShards(options, replication, adder);
  // Housekeeping of the tables every process shares is done once, by the first process.
  const housekeeping = (options.index ?? 0) === 0 ? startHousekeeping(ctx, options.usageRetentionDays ?? DEFAULT_USAGE_RETENTION_DAYS) : undefined;
  options.log.info({ msg: 'metering service ready', name: METERING_SERVICE_NAME, version: METERING_SERVICE_VERSION, index: options.index ?? 0, processes: options.processes ?? 1 });
  return {
    async stop() {
      await leases?.stop();
      await housekeeping?.stop();
      ctx.storage.stop();
      await stopService(srv);
      await Promise.allSettled([...inFlight]);
    },
  };
}

/** The handlers' bag: stores over metering.db, the clock, the storage health and the NATS side effects. */
function createContext(options: MeteringServiceOptions): MeteringContext {
  const { nc, db, log } = options;
  const now = options.now ?? Date.now;
  const { replication } = options;
  const onFatal =
    options.onFatalStorageError ?? ((error: unknown) => log.error({ msg: 'fatal storage error', error: describeStorageError(error) }));
  const shards = shardsOver(options.shardDbs ?? Array.from({ length: SHARD_COUNT }, () => db));
  const accountCommits = new GroupCommit(db);
  if (replication !== undefined) {
    accountCommits.replicate(replication.accounts);
    for (const [shard, replica] of replication.shards) shards[shard].commits.replicate(replica);
  }
  return {
    db,
    accounts: createAccounts(db),
    shards,
    throttle: createThrottle(db),
    accountCommits,
    accountsCaughtUp: replication?.accountsCaughtUp,
    now,
    log,
    storage: new StorageHealth({ db, log, now, onFatal }),
    broadcastKeysChanged(keyHashes, reason) {
      if (keyHashes.length > 0) nc.publish(KEYS_CHANGED_SUBJECT, encodeJson({ keyHashes, reason }));
    },
    async reclaim(holder, slot) {
      try {
        const reply = await call(nc, { subject: reclaimSubject(holder), request: reclaimRequest, reply: reclaimReply }, slot, {
          timeoutMs: RECLAIM_TIMEOUT_MS,
        });
        return reply.ranges;
      } catch {
        return undefined;
      }
    },
    serialize: createSerializer(),
  };
}

/** A store and a group commit per database: shards that share one database share them too. */
function shardsOver(dbs: readonly Db[]): Shard[] {
  const byDb = new Map<Db, Shard>();
  return dbs.map((shardDb) => {
    let shard = byDb.get(shardDb);
    if (shard === undefined) {
      shard = { db: shardDb, quota: new QuotaStore(shardDb), commits: new GroupCommit(shardDb) };
      byDb.set(shardDb, shard);
    }
    return shard;
  });
}

type Add = <Req extends z.ZodTypeAny, Rep extends z.ZodTypeAny>(
  name: string,
  rpc: Rpc<Req, Rep>,
  handler: Handler<Req, Rep>,
  committed?: (reply: z.input<Rep>) => boolean,
) => void;

/** Every endpoint: leases and releases of this process's shards, and the rest (any process answers). */
function addEndpoints(add: Add, shards: readonly number[]): void {
  // The replies that prove a commit tell the storage health so (a lease of an unknown key writes nothing).
  add('ping', RPC.ping, handlePing);
  add('register', RPC.register, handleRegister, () => true);
  for (const shard of shards) addShardEndpoints(add, shard);
  add('ops-developers-list', OPS.developersList, fresh(handleDevelopersList));
  add('ops-developers-show', OPS.developersShow, fresh(handleDevelopersShow));
  add('ops-developers-set-plan', OPS.developersSetPlan, fresh(handleDevelopersSetPlan));
  add('ops-developers-suspend', OPS.developersSuspend, fresh(handleDevelopersSuspend));
  add('ops-developers-reinstate', OPS.developersReinstate, fresh(handleDevelopersReinstate));
  add('ops-keys-list', OPS.keysList, fresh(handleKeysList));
  add('ops-keys-revoke', OPS.keysRevoke, fresh(handleKeysRevoke));
  add('ops-keys-expire', OPS.keysExpire, fresh(handleKeysExpire));
  add('ops-usage', OPS.usage, fresh(handleUsage));
  add('ops-backup', OPS.backup, handleBackup);
}

/**
 * Replicated: a shard's lease and release subjects are served, by a service instance of their own, only while
 * this process holds the shard's lease, and only once its copy of the shard has caught up with the stream.
 */
async function serveLeasedShards(
  options: MeteringServiceOptions,
  replication: Replication,
  adder: (service: Service) => Add,
): Promise<ShardLeases> {
  const serving = new Map<number, Service>();
  return replication.holdLeases({
    async lead(shard) {
      const replica = replication.shards.get(shard);
      if (replica === undefined) throw new Error(`shard ${shard} is not replicated here`);
      await replica.catchUp();
      const srv = await options.nc.services.add({
        name: METERING_SERVICE_NAME,
        version: METERING_SERVICE_VERSION,
        description: `leases and releases of shard ${shard}`,
        queue: METERING_QUEUE,
      });
      addShardEndpoints(adder(srv), shard);
      await options.nc.flush();
      serving.set(shard, srv);
    },
    async lose(shard) {
      const srv = serving.get(shard);
      serving.delete(shard);
      if (srv !== undefined) await stopService(srv);
    },
  });
}

/**
 * Replicated, an operator command is answered by whichever process of any host gets it: its copy of metering.db
 * is first brought up to the accounts stream, so that it finds what was registered or changed through another
 * host a moment ago. A stream that cannot be read (electing its leader) leaves the copy as it is.
 */
function fresh<Req, Rep>(handler: (ctx: MeteringContext, req: Req) => Rep | Promise<Rep>): (ctx: MeteringContext, req: Req) => Promise<Rep> {
  return async (ctx, req) => {
    await ctx.accountsCaughtUp?.().catch(() => undefined);
    return handler(ctx, req);
  };
}

function addShardEndpoints(add: Add, shard: number): void {
  add(`lease-${shard}`, { ...RPC.lease, subject: leaseSubject(shard) }, handleLease, (reply) => reply.status === 'granted');
  add(`release-${shard}`, { ...RPC.release, subject: releaseSubject(shard) }, handleRelease, (reply) => reply.returned > 0);
}

/** Lease records of past days pruned hourly (yesterday's stay, for late releases), daily usage kept for `days`. */
function startHousekeeping(ctx: MeteringContext, days: number): { stop(): Promise<void> } {
  const prune = () => {
    try {
      for (const quota of new Set(ctx.shards.map((s) => s.quota))) quota.pruneHolds(utcDay(ctx.now() - DAY_MS));
    } catch (error) {
      if (!ctx.storage.failed(error)) ctx.log.error({ msg: 'pruning lease records failed', error: describeStorageError(error) });
    }
  };
  prune();
  const pruneTimer = setInterval(prune, PRUNE_INTERVAL_MS);
  pruneTimer.unref();
  const retention = startUsageRetention([...new Set(ctx.shards.map((s) => s.quota))], days, ctx.now, ctx.log);
  return {
    async stop() {
      clearInterval(pruneTimer);
      retention.stop();
      await retention.idle();
    },
  };
}

/** Answers one request; resolves with its outcome for the metrics: `ok`, or the error kind it was answered with. */
async function answer<Req extends z.ZodTypeAny, Rep extends z.ZodTypeAny>(
  ctx: MeteringContext,
  name: string,
  rpc: Rpc<Req, Rep>,
  handler: Handler<Req, Rep>,
  msg: ServiceMsg,
  committed?: (reply: z.input<Rep>) => boolean,
): Promise<string> {
  const parsed = rpc.request.safeParse(tryDecodeJson(msg.data));
  if (!parsed.success) {
    fail(msg, 'bad_request', `invalid ${name} request: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
    return 'bad_request';
  }
  try {
    const reply = await handler(ctx, parsed.data);
    if (committed?.(reply)) ctx.storage.committed();
    msg.respond(encodeJson(reply));
    return 'ok';
  } catch (err) {
    if (err instanceof ServiceFault) {
      fail(msg, err.kind, err.message, err.parameter);
      return err.kind;
    }
    // A full disk or a damaged database: logged once by the storage health, not per request.
    if (err instanceof ReplicationUnavailableError || err instanceof LogMovedOnError) {
      fail(msg, 'unavailable', 'metering state cannot be replicated now');
      return 'unavailable';
    }
    if (ctx.storage.failed(err)) {
      fail(msg, 'unavailable', 'metering.db cannot commit');
      return 'unavailable';
    }
    // Logged without the request: a registration reply or lease request may carry secrets.
    ctx.log.error({ msg: 'handler failed', endpoint: name, error: (err as Error).message, stack: (err as Error).stack });
    fail(msg, 'internal', 'metering service error');
    return 'internal';
  }
}

function fail(msg: ServiceMsg, kind: keyof typeof ERROR_KIND_STATUS, message: string, parameter?: string): void {
  try {
    msg.respondError(ERROR_KIND_STATUS[kind], message, encodeJson({ error: { kind, message, parameter } }));
  } catch {
    // The connection closed under us: the caller times out and fails closed.
  }
}

async function stopService(srv: Service): Promise<void> {
  if (!srv.isStopped) await srv.stop();
}
