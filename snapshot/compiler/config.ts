// The build's environment, read once through zod (CORPORA_DIR, DATA_DIR).
import { z } from 'zod';

import { readEnv, sharedEnvSchema } from '../../services/shared/env.ts';

export const buildEnvSchema = sharedEnvSchema.pick({ DATA_DIR: true }).extend({
  /** Directory holding the raw corpora (one folder per source, as in ../shared/corpora). */
  CORPORA_DIR: z.string().min(1).optional(),
});
export type BuildEnv = z.infer<typeof buildEnvSchema>;

export function readBuildEnv(source: NodeJS.ProcessEnv = process.env): BuildEnv {
  return readEnv(buildEnvSchema, source);
}
