// What a take of the host's ledger costs a worker: one take per write transaction, against the takes of one
// event-loop turn in one transaction per stripe (HostTakes' group commit), over 1,000 keys in a fresh ledger.
// CPU time per take (user and system: LMDB writes the dirty pages and the meta page with system calls).
// `node --import tsx scripts/bench/ledger-takes.ts`
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { HostLedger, type TakeSlot } from '../../services/api/metering-client/host-ledger.ts';

const KEYS = 1_000;
const TAKES = 40_000;
const BATCHES = [1, 4, 8, 16, 32];
const ENDPOINT = 'GET /api/v1/stats';
const DAY = '2026-01-01';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-takes-'));
const ledger = new HostLedger(dir);
try {
  const slots: TakeSlot[] = Array.from({ length: KEYS }, (_, i) => ({ hash: createHash('sha256').update(String(i)).digest('hex'), endpoint: ENDPOINT, day: DAY }));
  slots.forEach((slot, i) => {
    const info = { id: `key_${i}`, prefix: `svc_live_${String(i).padStart(8, '0')}`, plan: 'institution' as const, limit: 1e9, expiresAt: null };
    ledger.grant(slot.hash, ENDPOINT, DAY, info, { requestId: ledger.pendingRequest(slot.hash, ENDPOINT, DAY), ranges: [[1, 1e8]], others: 0 });
  });
  const now = Date.now();
  /** CPU microseconds per take of `run`, which makes `per` takes a call. */
  const measure = (per: number, run: (i: number) => void): number => {
    for (let i = 0; i < TAKES / per / 10; i++) run(i);
    const start = process.cpuUsage();
    for (let i = 0; i < TAKES / per; i++) run(i);
    const { user, system } = process.cpuUsage(start);
    return (user + system) / TAKES;
  };
  const rows = [{ takes: 'one per transaction', cpuMicros: measure(1, (i) => ledger.take(slots[i % KEYS].hash, ENDPOINT, DAY, now, 0.5, 1000)) }];
  for (const batch of BATCHES) {
    const cpuMicros = measure(batch, (i) => ledger.takeAll(Array.from({ length: batch }, (_, j) => slots[(i * batch + j) % KEYS]), now, 0.5, 1000));
    rows.push({ takes: `${batch} a turn (one transaction per stripe)`, cpuMicros });
  }
  console.log(`${KEYS} keys, ${ledger.stripeCount} stripe(s); CPU µs per take, load average ${os.loadavg()[0].toFixed(1)}`);
  for (const row of rows) console.log(`  ${row.takes}: ${row.cpuMicros.toFixed(2)}`);
} finally {
  await ledger.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
