// A child process that logs like an API worker as fast as it can, through the worker's own logger on its real
// stdout and stderr (pipes its parent reads, or not), and reports over IPC what waits unwritten in them.
import { createApiLogger } from '../../services/api/log.ts';

const log = createApiLogger({ service: 'api', worker: 'log-writer' }, { mode: 'all', sampleEvery: 1 });
let requests = 0;
let errors = 0;
let running = true;

const burst = (): void => {
  if (!running) return;
  for (let i = 0; i < 2_000; i++, requests++) log.request?.('GET', 'GET /api/v1/words/:id', 200, 0.05, 'svc_live_0123abcd');
  if (requests % 20_000 === 0) log.error({ msg: `failure ${errors++}` });
  setImmediate(burst);
};

process.on('message', (message: string) => {
  if (message === 'report') {
    process.send?.({
      requests,
      errors,
      dropped: log.dropped?.(),
      stdoutQueued: process.stdout.writableLength,
      stderrQueued: process.stderr.writableLength,
      rss: process.memoryUsage().rss,
    });
  } else if (message === 'stop') {
    running = false;
    log.flush();
  } else if (message === 'exit') {
    process.disconnect();
  }
});
burst();
