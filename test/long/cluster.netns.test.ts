// Three hosts of a cluster on one machine (test/cluster/netns-harness.ts: a network namespace, an address and a
// pm2 stack each, with a member of the NATS cluster with JetStream, API workers, the snapshots agent, and
// metering where the host's role says). Under load spread over the three hosts' addresses, one host loses every
// process and its link; a snapshot is published meanwhile; then the host comes back. Shown: the other hosts keep
// serving, with internal_error refusals for at most 5 s; every acknowledged registration still answers; the
// returning host catches up with the snapshot on start.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { createNetnsCluster, netnsAvailable, waitClusterReady } from '../cluster/netns-harness.ts';
import { refusalSpan, startLoad } from '../cluster/load.ts';
import { copyTestSnapshot, currentSnapshot, publishedName, publishFile, ROOT, waitCurrent } from '../cluster/nats-cluster.ts';
import { waitHealthy } from '../support/pm2-stack.ts';
import { tempDir } from '../support/temp-dir.ts';

import type { Answer, Load } from '../cluster/load.ts';
import type { HostRole, NetnsCluster, NetnsHost } from '../cluster/netns-harness.ts';

/**
 * Whether metering replicates its state through the cluster (services/metering). Until it does, one host runs
 * metering and the host lost is another; once it does, every host runs metering, the host lost is one that
 * serves metering, and the assertions marked METERING_REPLICATED run.
 */
const METERING_REPLICATED = false;
const ROLES: readonly HostRole[] = METERING_REPLICATED ? ['all', 'all', 'all'] : ['all', 'api', 'api'];
const LOST = METERING_REPLICATED ? 0 : 2;
/** The spec's bound on internal_error refusals at the hosts that stay. */
const REFUSALS_WITHIN_MS = 5_000;
const OUTAGE_MS = 15_000;
const STARTUP_TIMEOUT_MS = 120_000;
const INSTALL_TIMEOUT_MS = 90_000;
const LOAD_PATH = '/api/v1/words?q=ala&limit=5';

describe('cluster on three hosts', { skip: !netnsAvailable() && 'needs root and iproute2 (ip netns)' }, () => {
  let cluster: NetnsCluster;
  let load: Load | undefined;
  let lost: NetnsHost;
  let lossAt = 0;
  let backAt = 0;
  let firstServedBack = 0;
  let published = '';
  let answers: Answer[] = [];

  before(async () => {
    cluster = await createNetnsCluster(ROLES);
    lost = cluster.hosts[LOST];
    for (const host of cluster.hosts) await cluster.start(host);
    await waitClusterReady(cluster, STARTUP_TIMEOUT_MS);
    for (const host of cluster.hosts) await waitHealthy(host.baseUrl, STARTUP_TIMEOUT_MS);

    const metering = cluster.hosts[0];
    const email = `load-${Date.now()}@example.org`;
    const res = await fetch(`${metering.baseUrl}/api/v1/developers`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Load', email }) });
    const { apiKey } = (await res.json()) as { apiKey: string };
    assert.equal(res.status, 201);
    await cluster.exec(metering, [process.execPath, '--import', 'tsx', path.join(ROOT, 'services/metering/ops/main.ts'), 'developers', 'set-plan', email, 'institution', '--all-keys']);

    load = startLoad(cluster.hosts.map((h) => h.baseUrl), apiKey, 2, LOAD_PATH);
    await sleep(5_000);
    lossAt = Date.now();
    await cluster.lose(lost);

    // Published while the host is away: it must catch up when it returns.
    const candidate = path.join(tempDir('dict-netns-build-'), 'built.sqlite');
    copyTestSnapshot(candidate);
    const publisher = cluster.hosts.find((h) => h !== lost) as NetnsHost;
    published = publishedName(await cluster.exec(publisher, [process.execPath, '--import', 'tsx', path.join(ROOT, 'scripts/publish-snapshot.ts'), '--file', candidate]));
    await sleep(Math.max(0, lossAt + OUTAGE_MS - Date.now()));

    backAt = Date.now();
    await cluster.reconnect(lost);
    await cluster.start(lost);
    await waitHealthy(lost.baseUrl, STARTUP_TIMEOUT_MS);
    await waitCurrent(lost.dataDir, published, INSTALL_TIMEOUT_MS);
    for (const host of cluster.hosts) if (host !== lost) await waitCurrent(host.dataDir, published, INSTALL_TIMEOUT_MS);
    await sleep(5_000);
    await load.stop();
    answers = load.answers;
    firstServedBack = answers.find((a) => a.host === LOST && a.at > backAt && a.status === 200)?.at ?? 0;
  });

  after(async () => {
    await load?.stop();
    await cluster?.destroy();
  });

  test('cluster on three hosts - the hosts that stay keep serving, refusing with internal_error for at most 5 s', () => {
    const stayed = cluster.hosts.filter((h) => h !== lost).map((host) => ({ host, ...refusalSpan(answers, host.index, lossAt, backAt) }));
    for (const { host, span, codes, failures, served } of stayed) {
      console.log(`host ${host.name}: ${served} served, ${failures} refused over ${span} ms while ${lost.name} was away (${[...codes].join(', ') || 'none'})`);
    }
    for (const { host, span, codes, served } of stayed) {
      assert.ok(served > 0, `${host.name} served nothing while ${lost.name} was away`);
      for (const code of codes) assert.equal(code, '500 internal_error', `${host.name} answered ${code}`);
      assert.ok(span <= REFUSALS_WITHIN_MS, `${host.name} refused for ${span} ms`);
    }
  });

  test('cluster on three hosts - the returning host serves again and catches up with the snapshot published while it was away', () => {
    assert.equal(currentSnapshot(lost.dataDir), published);
    assert.ok(firstServedBack > 0, `${lost.name} served nothing after it came back`);
    console.log(`${lost.name}: first answer served ${firstServedBack - backAt} ms after its restart began; lost for ${backAt - lossAt} ms`);
  });

  test('cluster on three hosts - every acknowledged registration still answers', async () => {
    const keys = load?.registered ?? [];
    assert.ok(keys.length > 0, 'no registration was acknowledged');
    const served = cluster.hosts[(LOST + 1) % cluster.hosts.length];
    for (const { apiKey, email } of keys) {
      const res = await fetch(`${served.baseUrl}${LOAD_PATH}`, { headers: { authorization: `Bearer ${apiKey}` } });
      assert.equal(res.status, 200, `${email}'s key: ${res.status} ${await res.text()}`);
    }
  });

  // METERING_REPLICATED: the host lost served metering; what it had acknowledged must survive it.
  test('cluster on three hosts - no acknowledged count is lost and no key goes over its limit', { skip: !METERING_REPLICATED && 'needs metering replicated through the cluster' }, () => {
    // The lead fills this in with the replication's own measures once it is merged: units acknowledged to the
    // workers before the loss are in `npm run ops -- keys usage` after it; a key at its daily limit gets no more
    // successes than the limit across the three hosts.
    assert.fail('to be written against replicated metering');
  });
});
