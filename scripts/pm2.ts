// npm run pm2 -- <pm2 arguments>: the pm2 CLI against the stack `npm start` runs for DATA_DIR (its pm2 home,
// $DATA_DIR/pm2), e.g. `npm run pm2 -- logs metering`, `-- scale api 4`, `-- monit`. Refuses, non-zero, when
// no such stack runs: pm2 itself would start a daemon of its own.
import { readEnv, sharedEnvSchema } from '../services/shared/env.ts';
import { findStack, noStackMessage, pm2Interactive } from '../services/shared/running-stack.ts';

const env = readEnv(sharedEnvSchema.pick({ DATA_DIR: true }));
const stack = await findStack(env.DATA_DIR);
if (!stack) {
  console.error(`error: ${noStackMessage(env.DATA_DIR)}`);
  process.exit(1);
}
process.exitCode = await pm2Interactive(stack, process.argv.slice(2), process.env);
