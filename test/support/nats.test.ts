// The tests' nats-server (test/support/nats.ts): a server counts as started only when it says it is ready,
// so a port another test file's server holds is never mistaken for ours.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { PortTakenError, launch, startNats } from './nats.ts';

describe('test nats-server', () => {
  it('test nats-server - a second server on a taken port is refused as PortTakenError, not adopted', async () => {
    const first = await startNats();
    try {
      await assert.rejects(launch(first.port), PortTakenError);
    } finally {
      await first.stop();
    }
  });

  it('test nats-server - restart on its own port after a kill is ready again', async () => {
    const nats = await startNats();
    try {
      await nats.kill();
      await nats.restart();
      await assert.rejects(launch(nats.port), PortTakenError);
    } finally {
      await nats.stop();
    }
  });
});
