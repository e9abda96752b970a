// How long an API worker takes to open a snapshot before it listens, timed in a fresh process as a worker
// meets it (nothing warmed yet), with the subject's own reader. Prints JSON: {"openMs": …, "entries": …}.
//   node --import tsx scripts/bench/open-snapshot.ts --root <tree> --snapshot <file>
import { parseArgs } from 'node:util';

import { subjectModule } from './subject-module.ts';

const { values } = parseArgs({ options: { root: { type: 'string' }, snapshot: { type: 'string' } } });
if (!values.root || !values.snapshot) throw new Error('--root and --snapshot are required');
const { openSnapshot } = await subjectModule<typeof import('../../services/api/snapshot/reader.ts')>(values.root, 'services/api/snapshot/reader.ts');
const started = process.hrtime.bigint();
const snapshot = openSnapshot(values.snapshot);
const openMs = Number(process.hrtime.bigint() - started) / 1e6;
const entries = snapshot.languages().reduce((n, l) => n + l.wordCount, 0);
snapshot.close();
process.stdout.write(`${JSON.stringify({ openMs, entries })}\n`);
