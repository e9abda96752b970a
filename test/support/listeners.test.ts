// Listeners on a port and their owners, from /proc (test/support/listeners.ts), as the test stack uses them to
// refuse a port a concurrent test file's stack also listens on.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';

import { listeningInodes, socketInodes, strangeListeners } from './listeners.ts';

describe('test listeners', () => {
  it('test listeners - a listening socket is found on its port, owned by its process, a stranger to others', async () => {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    try {
      const listening = listeningInodes(port);
      assert.equal(listening.size, 1);
      const [inode] = listening;
      assert.ok(socketInodes(process.pid).has(inode));
      assert.deepEqual(strangeListeners(port, [process.pid]), []);
      assert.deepEqual(strangeListeners(port, []), [inode]);
    } finally {
      server.close();
      await once(server, 'close');
    }
    assert.equal(listeningInodes(port).size, 0);
  });
});
