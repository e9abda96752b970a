// How long an API worker takes to open a snapshot at start (openSnapshot with the workers' options), timed in
// a fresh process as a worker meets it: no JIT warmed, no tokenizer fold table asked of SQLite yet.
// --built-filters builds the key filters from the indexes instead of reading the build's copy, as every
// worker did before snapshot format 5. Run by npm run bench for each build-scaling size; alone:
//   node --import tsx scripts/bench/open-snapshot.ts --snapshot <file> [--built-filters]
// Prints JSON: {"openMs": …, "checkMs": …, "checked": "sha256" | "length" | the reason it failed}.
import { parseArgs } from 'node:util';

import { checkSnapshotFile } from '../../services/api/snapshot/check.ts';
import { openSnapshot } from '../../services/api/snapshot/reader.ts';

const { values } = parseArgs({ options: { snapshot: { type: 'string' }, 'built-filters': { type: 'boolean', default: false } } });
if (!values.snapshot) throw new Error('--snapshot is required');
// The file check a worker makes first (length, and the build's SHA-256 when it is beside the file): timed apart.
const checking = process.hrtime.bigint();
const check = checkSnapshotFile(values.snapshot);
const checkMs = Number(process.hrtime.bigint() - checking) / 1e6;
const started = process.hrtime.bigint();
const snapshot = openSnapshot(values.snapshot, { storedKeyFilters: !values['built-filters'] });
const openMs = Number(process.hrtime.bigint() - started) / 1e6;
snapshot.close();
process.stdout.write(`${JSON.stringify({ openMs, checkMs, checked: check.ok ? check.verified : check.reason })}\n`);
