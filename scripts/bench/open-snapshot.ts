// How long an API worker takes to open a snapshot before it listens, timed in a fresh process as a worker
// meets it (nothing warmed yet), with the subject's own reader, after the subject's file check where it has one
// (length, and the build's SHA-256 when it is beside the file). Prints JSON: {"checkMs": …, "openMs": …, "entries": …}.
//   node --import tsx scripts/bench/open-snapshot.ts --root <tree> --snapshot <file>
import { parseArgs } from 'node:util';

import { subjectModule } from './subject-module.ts';

const { values } = parseArgs({ options: { root: { type: 'string' }, snapshot: { type: 'string' } } });
if (!values.root || !values.snapshot) throw new Error('--root and --snapshot are required');
const { openSnapshot } = await subjectModule<typeof import('../../snapshot/reader/reader.ts')>(values.root, 'snapshot/reader/reader.ts');
const check = await subjectModule<typeof import('../../snapshot/reader/check.ts')>(values.root, 'snapshot/reader/check.ts').catch(() => undefined);
const checking = process.hrtime.bigint();
check?.checkSnapshotFile(values.snapshot);
const checkMs = check === undefined ? null : Number(process.hrtime.bigint() - checking) / 1e6;
const started = process.hrtime.bigint();
const snapshot = openSnapshot(values.snapshot);
const openMs = Number(process.hrtime.bigint() - started) / 1e6;
const entries = snapshot.languages().reduce((n, l) => n + l.wordCount, 0);
snapshot.close();
process.stdout.write(`${JSON.stringify({ checkMs, openMs, entries })}\n`);
