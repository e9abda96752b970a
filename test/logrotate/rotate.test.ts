// Rotation by copy and truncate: oversized live logs are copied to .1 and emptied, older copies shift, the
// oldest beyond LOG_KEEP is deleted.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';

import { rotateOversized } from '../../services/logrotate/rotate.ts';

describe('rotateOversized', () => {
  it('rotateOversized - copies the live logs over the size to .1 and empties them, shifts the older copies and keeps LOG_KEEP', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rotate-'));
    try {
      const write = (name: string, bytes: number, fill = 'x') => fs.writeFileSync(path.join(dir, name), fill.repeat(bytes));
      write('api-out-0.log', 2_000, 'n');
      write('api-out-0.log.1', 10, '1');
      write('api-out-0.log.2', 10, '2');
      write('api-out-1.log', 500);
      write('metering-error.log', 1_001);
      write('notes.txt', 5_000);

      assert.deepEqual(rotateOversized(dir, 1_000, 2).sort(), ['api-out-0.log', 'metering-error.log']);
      const listing = Object.fromEntries(fs.readdirSync(dir).sort().map((n) => [n, fs.readFileSync(path.join(dir, n), 'utf8')[0]]));
      assert.deepEqual(listing, {
        'api-out-0.log': undefined,
        'api-out-0.log.1': 'n',
        'api-out-0.log.2': '1',
        'api-out-1.log': 'x',
        'metering-error.log': undefined,
        'metering-error.log.1': 'x',
        'notes.txt': 'x',
      });
      assert.deepEqual(rotateOversized(dir, 1_000, 2), [], 'nothing left over the size');
      assert.deepEqual(rotateOversized(path.join(dir, 'missing'), 1_000, 2), []);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
