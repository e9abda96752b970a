// Makes the bus's credentials (once) and writes the nats-server config for them: run before nats-server starts
// (ecosystem.config.cjs runs dist/nats-auth.mjs). Prints the config's path.
import { ConfigError, readEnv, sharedEnvSchema } from '../env.ts';
import { writeServerConfig } from './server-config.ts';

try {
  const env = readEnv(sharedEnvSchema.pick({ DATA_DIR: true }));
  process.stdout.write(`${writeServerConfig(env.DATA_DIR)}\n`);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
