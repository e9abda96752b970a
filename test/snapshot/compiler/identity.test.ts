// Stable identity: ids and slugs survive rebuilds and the addition or removal of other records.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import { IdentityAllocator, entryId, entrySlug } from '../../../snapshot/compiler/identity.ts';
import { buildSnapshot } from '../../../snapshot/compiler/pipeline.ts';
import { testSnapshotPath } from '../../support/snapshot.ts';
import { SHARED_CORPORA, buildSample, copySample, identities, readJson, tempDir, writeJson } from './build-helpers.ts';

describe('entryId', () => {
  it('entryId - is a positive 48-bit integer determined by the key alone', () => {
    const id = entryId('yo\u0001omi\u0001noun\u0001');
    assert.equal(id, entryId('yo\u0001omi\u0001noun\u0001'));
    assert.ok(Number.isSafeInteger(id) && id > 0 && id < 2 ** 48);
    assert.notEqual(id, entryId('yo\u0001omi\u0001noun\u00011'));
  });
  it('IdentityAllocator - resolves a collision deterministically for the later key', () => {
    const a = new IdentityAllocator();
    const first = a.allocate('k1', { exactForm: 'omi', language: 'yo', partOfSpeech: 'noun', etymologyNumber: null });
    const again = a.allocate('k1', { exactForm: 'omi', language: 'yo', partOfSpeech: 'noun', etymologyNumber: null });
    assert.notEqual(first.id, again.id);
    assert.notEqual(first.slug, again.slug);
    assert.equal(a.collisions, 2);
  });
});

describe('entrySlug', () => {
  it('entrySlug - is the folded form plus language, part of speech, etymology and a tone fingerprint', () => {
    assert.equal(entrySlug({ exactForm: 'omi', language: 'yo', partOfSpeech: 'noun', etymologyNumber: null }), 'omi-yo-noun');
    assert.match(entrySlug({ exactForm: 'ọ̀run', language: 'yo', partOfSpeech: 'noun', etymologyNumber: 1 }), /^orun-yo-noun-1-[0-9a-z]{4}$/);
    assert.notEqual(
      entrySlug({ exactForm: 'ọ̀run', language: 'yo', partOfSpeech: 'noun', etymologyNumber: null }),
      entrySlug({ exactForm: 'ọrùn', language: 'yo', partOfSpeech: 'noun', etymologyNumber: null }),
    );
    assert.match(entrySlug({ exactForm: '-tu afà', language: 'ig', partOfSpeech: 'verb', etymologyNumber: null }), /^[a-z0-9-]+$/);
  });
});

describe('snapshot identity', () => {
  it('snapshot identity - rebuilding the same corpora gives the same ids and slugs', async (t) => {
    const dir = tempDir(t);
    const corpora = copySample(dir);
    await buildSample(corpora, path.join(dir, 'a.sqlite'));
    await buildSample(corpora, path.join(dir, 'b.sqlite'), '2027-06-30');
    assert.deepEqual([...identities(path.join(dir, 'b.sqlite'))], [...identities(path.join(dir, 'a.sqlite'))]);
  });

  it('snapshot identity - removing and adding other records leaves every remaining id and slug unchanged', async (t) => {
    const dir = tempDir(t);
    const corpora = copySample(dir);
    await buildSample(corpora, path.join(dir, 'before.sqlite'));
    const igFile = path.join(corpora, 'igbo-api', 'igbo-sample.json');
    const ig = readJson<Record<string, unknown>>(igFile);
    delete ig['egō'];
    delete ig['-lī'];
    ig['ọhụrụ'] = [{ word: 'ọhụrụ', wordClass: 'ADJ', definitions: ['new'], examples: [], variations: [], stems: null }];
    writeJson(igFile, ig);
    const yoFile = path.join(corpora, 'wiktionary-yoruba', 'yoruba-sample-lexicon.json');
    const yo = readJson<Record<string, unknown[]>>(yoFile);
    delete yo.omi;
    yo.ojo = [{ pos: 'noun', etymologyNumber: '1', headword: 'òjò', canonicalForm: { value: 'òjò', confidence: 1 }, standardForms: [], glosses: ['rain'], altOfTargets: [], componentCandidates: [], derivedForms: [] }];
    writeJson(yoFile, yo);
    await buildSample(corpora, path.join(dir, 'after.sqlite'));

    const before = identities(path.join(dir, 'before.sqlite'));
    const after = identities(path.join(dir, 'after.sqlite'));
    assert.ok(!after.has('ig|egō|noun|') && after.has('ig|ọhụrụ|adjective|'));
    let compared = 0;
    for (const [key, row] of after) {
      const old = before.get(key);
      if (!old) continue;
      assert.deepEqual(row, old, key);
      compared += 1;
    }
    assert.ok(compared >= before.size - 3, `compared ${compared} of ${before.size}`);
  });

  it('snapshot identity - holds on the real corpora with a tenth of the Igbo records removed', { skip: !existsSync(path.join(SHARED_CORPORA, 'igbo-api', 'ig-en.json')) }, async (t) => {
    const dir = tempDir(t);
    // The Igbo and Yoruba sources only: identity depends on an entry's own key, and the two builds stay quick.
    const all = readJson<{ sources: { file: string; language: string }[] }>(path.resolve('corpora/sources.json'));
    const sources = { ...all, sources: all.sources.filter((s) => ['ig', 'yo'].includes(s.language) && !s.file.startsWith('ntrex-128/')) };
    const sourcesFile = path.join(dir, 'sources.json');
    writeJson(sourcesFile, sources);
    const full = path.join(dir, 'full.sqlite');
    await buildSnapshot({ out: full, corpora: SHARED_CORPORA, sourcesFile, date: '2026-01-01' });
    // A reduced copy of the corpora: every tenth Igbo record removed, the other sources unchanged.
    const reduced = path.join(dir, 'corpora');
    for (const s of sources.sources) {
      const from = path.join(SHARED_CORPORA, s.file);
      const to = path.join(reduced, s.file);
      if (s.file.startsWith('igbo-api/')) {
        const data = readJson<Record<string, unknown>>(from);
        const kept = Object.fromEntries(Object.entries(data).filter((_, i) => i % 10 !== 0));
        writeJson(ensureDir(to), kept);
      } else copyFileSync(from, ensureDir(to));
    }
    const small = path.join(dir, 'small.sqlite');
    await buildSnapshot({ out: small, corpora: reduced, sourcesFile, date: '2026-01-01' });
    const a = identities(full);
    const b = identities(small);
    assert.ok(b.size < a.size);
    for (const [key, row] of b) {
      const old = a.get(key);
      if (old) assert.deepEqual(row, old, key);
    }
  });
});

function ensureDir(file: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  return file;
}
