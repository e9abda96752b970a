// The whole build: report arithmetic, content hash, sample flag, --if-changed and CLI failures.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { SAMPLE_SOURCES_MANIFEST } from '../../../snapshot/compiler/inputs.ts';
import { checkArithmetic } from '../../../snapshot/compiler/report.ts';
import type { BuildReport } from '../../../snapshot/compiler/report.ts';
import { snapshotIsCurrent } from '../../../snapshot/compiler/up-to-date.ts';
import { openSnapshot } from '../../../snapshot/reader/reader.ts';
import type { Snapshot } from '../../../snapshot/reader/snapshot.ts';
import { StatsSchema } from '../../../services/shared/schemas.ts';
import { buildSample, copySample, readJson, tempDir } from './build-helpers.ts';

const MAIN = path.resolve('snapshot/compiler/main.ts');

function runCli(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['--import', 'tsx', MAIN, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
}

/** One build of the sample corpus, read by the tests that only look at what it wrote. */
let sampleDir: string;
let sampleOut: string;
let sampleReport: BuildReport;
let sample: Snapshot;
before(async () => {
  sampleDir = mkdtempSync(path.join(tmpdir(), 'build-test-'));
  sampleOut = path.join(sampleDir, 's.sqlite');
  sampleReport = (await buildSample(copySample(sampleDir), sampleOut)).report;
  sample = openSnapshot(sampleOut);
});
after(() => {
  sample.close();
  rmSync(sampleDir, { recursive: true, force: true });
});

describe('build report', () => {
  it('build report - read = imported + merged + rejected for every source, and is written beside the snapshot', () => {
    const report = sampleReport;
    assert.deepEqual(checkArithmetic(report.sources), []);
    for (const s of report.sources) {
      assert.ok(s.read > 0, s.source);
      assert.equal(s.merged, Object.values(s.mergedBy).reduce((a, b) => a + b, 0), s.source);
      assert.equal(s.rejected, Object.values(s.rejectedBy).reduce((a, b) => a + b, 0), s.source);
    }
    const written = readJson<BuildReport>(`${sampleOut}.report.json`);
    assert.deepEqual(written.sources, report.sources);
    const yo = report.sources.find((s) => s.source === 'sample-yoruba');
    assert.equal(yo?.mergedBy['duplicate record (same form, part of speech and etymology) merged'], 2, JSON.stringify(yo));
  });
  it('checkArithmetic - names a source whose counts do not add up', () => {
    const broken = { source: 'x', language: 'ig', file: '', read: 3, imported: 1, merged: 1, rejected: 0, mergedBy: {}, rejectedBy: {}, notes: {} };
    assert.equal(checkArithmetic([broken]).length, 1);
  });
});

describe('buildSnapshot', () => {
  it('buildSnapshot - same inputs give the same content hash, whatever the build day', async (t) => {
    const dir = tempDir(t);
    const corpora = copySample(dir);
    const a = (await buildSample(corpora, path.join(dir, 'a.sqlite'), '2026-01-01')).report;
    const b = (await buildSample(corpora, path.join(dir, 'b.sqlite'), '2026-09-17')).report;
    assert.equal(a.contentHash, b.contentHash);
    assert.match(a.contentHash, /^[0-9a-f]{64}$/);
  });
  it('buildSnapshot - worker threads write the same snapshot content as the in-process path', async (t) => {
    const dir = tempDir(t);
    const corpora = copySample(dir);
    const inProcess = (await buildSample(corpora, path.join(dir, 'a.sqlite'), '2026-01-01', 0)).report;
    const threaded = (await buildSample(corpora, path.join(dir, 'b.sqlite'), '2026-01-01', 2)).report;
    assert.equal(threaded.contentHash, inProcess.contentHash);
    assert.equal(threaded.entries, inProcess.entries);
  });
  it('buildSnapshot - marks a sample build as sample in meta and stats, and keeps homographs apart', () => {
    const snap = sample;
    assert.equal(snap.meta.sample, true);
    const stats = StatsSchema.parse(JSON.parse(snap.statsJson()));
    assert.equal(stats.snapshot.sample, true);
    // ọ̀run (heaven), ọrùn (neck) and ọrun (bow) are three entries; owó (money, twice) is one.
    const orun = snap.search({ q: 'orun', language: 'yo', page: 1, limit: 10 });
    assert.deepEqual(orun.items.filter((i) => i.matchType === 'folded').map((i) => i.exactForm).sort(), ['ọ̀run', 'ọrun', 'ọrùn'].map((s) => s.normalize('NFC')).sort());
    assert.equal(snap.search({ q: 'owó', page: 1, limit: 10 }).items.filter((i) => i.matchType === 'exact').length, 1);
  });
  it('buildSnapshot - follows "see X" (the record becomes a variant of X), keeps variants, and attaches treebank sentences', () => {
    const snap = sample;
    const find = (q: string, language: string) => snap.search({ q, language, page: 1, limit: 1 }).items[0];
    // mmiri's only definition is "see mmilī": no entry of its own with an empty gloss, but a spelling of mmilī.
    const mmiri = find('mmiri', 'ig');
    assert.equal(mmiri.exactForm, 'mmilī'.normalize('NFC'), JSON.stringify(mmiri));
    assert.ok(snap.entry(mmiri.slug)?.variants.some((v) => v.form === 'mmiri'), JSON.stringify(snap.entry(mmiri.slug)?.variants));
    assert.equal(snap.search({ q: 'mmiri', language: 'ig', page: 1, limit: 5 }).items.filter((i) => i.exactForm === 'mmiri').length, 0);
    const omi = snap.entry(find('omi', 'yo').slug);
    assert.equal(omi?.examples[0]?.text, 'Omi dára.');
    assert.equal(omi?.examples[0]?.source.id, 'sample-yoruba-sentences');
    const rere = snap.entry(find('ọ̀rẹ́', 'yo').slug);
    assert.deepEqual(rere?.variants, [{ form: 'ọrẹ', kind: 'alternative-spelling', note: null }]);
  });
});

describe('build CLI', () => {
  it('build CLI - --if-changed skips when inputs are unchanged and rebuilds when a corpus changes', async (t) => {
    const dir = tempDir(t);
    const corpora = copySample(dir);
    const out = path.join(dir, 's.sqlite');
    assert.equal(snapshotIsCurrent(out, corpora, undefined), false);
    await buildSample(corpora, out);
    assert.equal(snapshotIsCurrent(out, corpora, undefined), true);
    writeFileSync(path.join(corpora, 'unilex-frequency', 'ig.txt'), 'Form\tFrequency\n\nego\t5\n');
    assert.equal(snapshotIsCurrent(out, corpora, undefined), false);
    const cli = runCli(['--corpora', corpora, '--out', out, '--if-changed']);
    assert.equal(cli.status, 0, cli.stderr);
  });
  it('build CLI - exits non-zero naming the file when a source is missing', async (t) => {
    const dir = tempDir(t);
    const corpora = copySample(dir);
    rmSync(path.join(corpora, 'ud-yoruba-ytb', 'yoruba-sample-treebank.txt'));
    const cli = runCli(['--corpora', corpora, '--out', path.join(dir, 's.sqlite')]);
    assert.notEqual(cli.status, 0);
    assert.match(cli.stderr, /yoruba-sample-treebank\.txt: source file missing/);
    assert.equal(existsSync(path.join(dir, 's.sqlite')), false);
  });
  it('build CLI - exits non-zero naming the file when a source is not its format or unreadable', async (t) => {
    const dir = tempDir(t);
    const corpora = copySample(dir);
    const igFile = path.join(corpora, 'igbo-api', 'igbo-sample.json');
    writeFileSync(igFile, '# text = not json\n');
    const cli = runCli(['--corpora', corpora, '--out', path.join(dir, 's.sqlite')]);
    assert.notEqual(cli.status, 0);
    assert.match(cli.stderr, /igbo-sample\.json: not a JSON object of records/);
    if (process.getuid?.() !== 0) {
      writeFileSync(igFile, '{}');
      chmodSync(igFile, 0o000);
      const unreadable = runCli(['--corpora', corpora, '--out', path.join(dir, 's.sqlite')]);
      assert.match(unreadable.stderr, /ig-en\.json: source file unreadable/);
    }
  });
  it('build CLI - builds the sample corpus with a loud sample line when pointed at it', async (t) => {
    const dir = tempDir(t);
    const cli = runCli(['--corpora', path.dirname(SAMPLE_SOURCES_MANIFEST), '--out', path.join(dir, 's.sqlite')]);
    assert.equal(cli.status, 0, cli.stderr);
    assert.match(cli.stderr, /SAMPLE DATA/);
    assert.match(cli.stdout, /SAMPLE DATA/);
    assert.ok(existsSync(path.join(dir, 's.sqlite.report.json')));
  });
});
