// The bench's reading of the workers' request log (scripts/bench/request-log.ts): only the lines written after
// the mark count, request lines only, across every worker's file.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';

import { handlerTimesSince, markRequestLogs } from '../../scripts/bench/request-log.ts';

const line = (ms: number) => `{"time":"2026-11-23T12:00:00.000Z","level":"info","msg":"request","method":"GET","route":"GET /api/v1/stats","status":200,"ms":${ms}}\n`;

describe('bench request log', () => {
  it('bench request log - handler times of the lines written since the mark, in every worker file', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-log-'));
    try {
      const logs = path.join(home, 'logs');
      fs.mkdirSync(logs);
      const [a, b] = [path.join(logs, 'api-out-1.log'), path.join(logs, 'api-out-2.log')];
      fs.writeFileSync(a, line(50) + line(60));
      fs.writeFileSync(b, '');
      fs.writeFileSync(path.join(logs, 'metering-out-0.log'), line(70));
      const marks = markRequestLogs(home);
      fs.appendFileSync(a, `${line(1)}{"level":"info","msg":"listening","port":1}\n${line(3)}`);
      fs.appendFileSync(b, `${line(2)}${line(4)}partial {"msg":"request","ms":9`);
      const times = await handlerTimesSince(home, marks);
      assert.deepEqual(times, { requests: 4, p50Ms: 2, p99Ms: 4, p999Ms: 4, maxMs: 4 });
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
