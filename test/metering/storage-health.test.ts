// What metering does with a storage error it meets while serving, over real SQLite and a real nats-server: one
// no wait can mend (here SQLITE_READONLY, from a connection made query-only) is handed once to the process's
// fatal handler (which exits, so that pm2 restarts it), and the callers fail closed as unavailable, not as a
// fault to log per request.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { MeteringStorageError } from '../../services/shared/domain-errors.ts';
import { storageFault } from '../../services/metering/storage-health.ts';
import { startNats, type NatsHandle } from '../support/nats.ts';
import { freshIp, startMeteringInProcess, workerMeter, type InProcessMetering } from './support.ts';

import type { Meter } from '../../services/api/metering-client/meter.ts';

describe('storage faults while serving', () => {
  let nats: NatsHandle;
  let svc: InProcessMetering;
  let meter: Meter;
  const fatal: unknown[] = [];

  before(async () => {
    nats = await startNats();
    svc = await startMeteringInProcess(nats.url, undefined, undefined, (error) => fatal.push(error));
    meter = await workerMeter(nats.url, 'storage-faults');
  });
  after(async () => {
    await meter.close();
    await svc.stop();
    await nats.stop();
  });

  it('storage faults while serving - a fatal one reaches the fatal handler once; callers get MeteringStorageError', async () => {
    svc.db.pragma('query_only = ON');
    for (let i = 0; i < 3; i++) {
      await assert.rejects(meter.register({ name: 'Read only', email: `ro${i}@example.org` }, freshIp()), MeteringStorageError);
    }
    assert.equal(fatal.length, 1, String(fatal));
    assert.equal((fatal[0] as { code?: string }).code, 'SQLITE_READONLY');
    svc.db.pragma('query_only = OFF');
  });

  it('storage faults while serving - which SQLite codes are faults of the storage, and which kind', () => {
    const kinds = Object.fromEntries(
      ['SQLITE_FULL', 'SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR_FSYNC', 'SQLITE_READONLY_DBMOVED', 'SQLITE_CANTOPEN', 'SQLITE_BUSY', 'SQLITE_CONSTRAINT_UNIQUE'].map(
        (code) => [code, storageFault(Object.assign(new Error(code), { code })) ?? 'none'],
      ),
    );
    assert.deepEqual(kinds, {
      SQLITE_FULL: 'transient',
      SQLITE_CORRUPT: 'fatal',
      SQLITE_NOTADB: 'fatal',
      SQLITE_IOERR_WRITE: 'transient',
      SQLITE_IOERR_FSYNC: 'transient',
      SQLITE_READONLY_DBMOVED: 'fatal',
      SQLITE_CANTOPEN: 'fatal',
      SQLITE_BUSY: 'none',
      SQLITE_CONSTRAINT_UNIQUE: 'none',
    });
  });
});
