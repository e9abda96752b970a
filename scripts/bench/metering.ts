// Section "metering": the subject's metering service (its dist/ bundle) on a real nats-server, loaded by a
// worker's Meter in another process (metering-load.ts): admissions per second and NATS round trips per
// admission, the cost the leased allowance keeps off every metered request.
import path from 'node:path';

import type { BenchContext, Figure, Section } from './context.ts';
import { f1, n0, table } from './markdown.ts';
import type { MeteringLoad } from './metering-load.ts';
import { freePort, runBenchScript, startChild, stopChild, waitForLog } from './processes.ts';

export type MeteringResult = MeteringLoad;

const READY_TIMEOUT_MS = 20_000;

async function run(ctx: BenchContext): Promise<MeteringResult> {
  console.log('==> metering: a worker\'s Meter against the metering service');
  const natsPort = await freePort();
  const natsUrl = `nats://127.0.0.1:${natsPort}`;
  const natsLog = path.join(ctx.dir, 'metering-nats.log');
  const nats = startChild('nats-server', ['-a', '127.0.0.1', '-p', String(natsPort)], { log: natsLog });
  try {
    await waitForLog(natsLog, 'Server is ready', nats, READY_TIMEOUT_MS);
    const serviceLog = path.join(ctx.dir, 'metering-service.log');
    const service = startChild(process.execPath, [path.join(ctx.subject.root, 'dist/metering.mjs')], {
      cwd: ctx.subject.root,
      env: { ...process.env, NODE_ENV: 'production', NATS_URL: natsUrl, DATA_DIR: path.join(ctx.dir, 'metering-data') },
      log: serviceLog,
    });
    try {
      await waitForLog(serviceLog, '"listening"', service, READY_TIMEOUT_MS);
      const load = await runBenchScript<MeteringLoad>('metering-load.ts', ['--root', ctx.subject.root, '--nats', natsUrl]);
      for (const s of load.steady) console.log(`    ${s.inFlight} in flight: ${n0(s.admissionsPerSecond)} admissions/s, ${s.roundTripsPerAdmission.toFixed(5)} round trips per admission`);
      return load;
    } finally {
      await stopChild(service);
    }
  } finally {
    await stopChild(nats);
  }
}

function render(r: MeteringResult): string {
  return `## Metering

A worker's Meter (\`services/api/metering-client/nats-meter.ts\`) in one process, against the metering service
(\`dist/metering.mjs\`) on a real nats-server: a whole day of a free and of a team key, then one institution
key admitted ${n0(r.steady[0]?.admissions ?? Number.NaN)} times at each load. Round trips are the lease and release requests seen on NATS.

${table(['load', 'admissions/s', 'round trips per admission'], r.steady.map((s) => [`${s.inFlight} in flight`, n0(s.admissionsPerSecond), s.roundTripsPerAdmission.toFixed(5)]))}

${table(['whole day', 'admissions', 'round trips', 'per 1,000 admissions'], r.days.map((d) => [d.plan, n0(d.admissions), n0(d.roundTrips), f1((1000 * d.roundTrips) / d.admissions)]))}
`;
}

function figures(r: MeteringResult): Figure[] {
  return [
    ...r.steady.map((s): Figure => ({ name: `metering, ${s.inFlight} in flight: admissions/s`, value: s.admissionsPerSecond, unit: '/s', better: 'higher' })),
    ...r.steady.map((s): Figure => ({ name: `metering, ${s.inFlight} in flight: round trips per 1,000 admissions`, value: 1000 * s.roundTripsPerAdmission, unit: '', better: 'lower' })),
  ];
}

export const meteringSection: Section<'metering'> = { id: 'metering', run, render, figures };
