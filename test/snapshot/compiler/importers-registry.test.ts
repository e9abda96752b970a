// The importer registry: every format's file registered under one name, and the manifest validated from it.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

import { z } from 'zod';

import { LANGUAGES_MANIFEST, SAMPLE_SOURCES_MANIFEST, SOURCES_MANIFEST } from '../../../snapshot/compiler/inputs.ts';
import { IMPORTERS, IMPORTER_NAMES } from '../../../snapshot/compiler/importers/registry.ts';
import { SourceManifestSchema, loadManifests, sourceFiles } from '../../../snapshot/compiler/manifest.ts';
import type { SourceManifest } from '../../../snapshot/compiler/manifest.ts';

const IMPORTERS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../snapshot/compiler/importers');

/** A source with the common fields, in the format `importer`, with `extra` fields. */
const source = (importer: string, extra: Record<string, unknown> = {}) => ({
  id: 'src',
  name: 'A source',
  language: 'ig',
  importer,
  file: 'dir/data.txt',
  licence: { spdx: 'CC0-1.0', name: 'CC0 1.0', url: 'https://creativecommons.org/publicdomain/zero/1.0/' },
  attribution: 'A source, CC0.',
  url: 'https://example.org/',
  role: 'lexicon',
  verified: true,
  ...extra,
});

const issues = (raw: unknown): string => {
  const parsed = SourceManifestSchema.safeParse(raw);
  return parsed.success ? '' : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
};

const isImporter = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && 'read' in value && typeof value.read === 'function' && 'options' in value && value.options instanceof z.ZodObject;

describe('importer registry', () => {
  it('importer registry - every importer defined in snapshot/compiler/importers/ is registered, once', async () => {
    const registered = Object.values(IMPORTERS) as unknown[];
    assert.equal(new Set(registered).size, registered.length, 'no importer under two names');
    const defined: string[] = [];
    for (const file of readdirSync(IMPORTERS_DIR).filter((f) => f.endsWith('.ts'))) {
      const module = (await import(path.join(IMPORTERS_DIR, file))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) {
        if (!isImporter(value)) continue;
        defined.push(`${file} ${name}`);
        assert.ok(registered.includes(value), `${file} exports importer ${name}, which registry.ts does not list`);
      }
    }
    assert.equal(defined.length, registered.length, defined.join(', '));
  });
  it('importer registry - the manifest takes exactly the registered names as importer', () => {
    assert.deepEqual(IMPORTER_NAMES, Object.keys(IMPORTERS));
    for (const name of IMPORTER_NAMES) {
      // The formats that read a second file need its name.
      const extra = name === 'ntrex-lines' ? { translationFile: 'dir/english.txt' } : name === 'unimorph-gloss' ? { tableFile: 'unimorph/amh' } : {};
      assert.equal(issues(source(name, extra)), '', name);
    }
    const refused = issues(source('csv-of-my-own'));
    assert.match(refused, /^importer: /, refused);
    assert.ok(IMPORTER_NAMES.every((name) => refused.includes(`'${name}'`)), `the message lists every format: ${refused}`);
  });
  it("importer registry - a format's own fields are checked with the sources in it, and defaulted", () => {
    assert.match(issues(source('ntrex-lines')), /^translationFile: Required/, 'line-aligned sentences need their English file');
    assert.match(issues(source('wiktionary-tsv', { headword: 'longest-form' })), /^headword: /);
    const tsv = SourceManifestSchema.parse(source('wiktionary-tsv')) as SourceManifest & { headword?: string };
    assert.equal(tsv.headword, 'page-title');
    const mfa = SourceManifestSchema.parse(source('mfa-dict')) as SourceManifest & { fallback?: boolean };
    assert.equal(mfa.fallback, false);
    // Another format's field means nothing here and is not kept.
    assert.equal('headword' in SourceManifestSchema.parse(source('conllu', { headword: 'tone-marked-form' })), false);
  });
  it('importer registry - the files a source reads are its data file and those its format names', () => {
    const ntrex = SourceManifestSchema.parse(source('ntrex-lines', { translationFile: 'dir/english.txt', referenceFile: 'dir/ids.tsv' }));
    const tsv = SourceManifestSchema.parse(source('wiktionary-tsv', { file: 'dir/data.txt' }));
    assert.deepEqual(sourceFiles([ntrex, tsv]), ['dir/data.txt', 'dir/english.txt', 'dir/ids.tsv']);
  });
  it("importer registry - the repository's manifests name registered formats only", () => {
    for (const sourcesFile of [SOURCES_MANIFEST, SAMPLE_SOURCES_MANIFEST]) {
      const { sources } = loadManifests(sourcesFile, LANGUAGES_MANIFEST);
      assert.ok(sources.length > 0 && sources.every((s) => IMPORTER_NAMES.includes(s.importer)), sourcesFile);
    }
  });
});
