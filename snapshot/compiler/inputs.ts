// Where the corpora are, whether they are the bundled sample, and the checksums that identify the inputs.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { sha256OfFile } from '../format/file-hash.ts';
import { SNAPSHOT_FORMAT_VERSION } from '../format/format.ts';
import { SourcesFileSchema, loadJsonFile } from './manifest.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const LANGUAGES_MANIFEST = path.join(REPO_ROOT, 'corpora', 'languages.json');
export const SOURCES_MANIFEST = path.join(REPO_ROOT, 'corpora', 'sources.json');
export const SAMPLE_DIR = path.join(REPO_ROOT, 'corpora', 'sample');
export const SAMPLE_SOURCES_MANIFEST = path.join(SAMPLE_DIR, 'sources.json');

export interface CorporaLocation {
  dir: string;
  sourcesFile: string;
  languagesFile: string;
  sample: boolean;
  /** How the directory was chosen, for the build output. */
  why: string;
}

function hasAnySource(dir: string, sourcesFile: string): boolean {
  if (!existsSync(dir)) return false;
  const { sources } = loadJsonFile(sourcesFile, SourcesFileSchema);
  return sources.some((s) => existsSync(path.join(dir, s.file)));
}

/**
 * --corpora, else CORPORA_DIR (both used as given: a missing source there is an error), else
 * corpora/raw/, else ../shared/corpora/ beside the repository, when they hold any source file; else the
 * bundled sample corpus in corpora/sample/.
 */
export function locateCorpora(explicit: string | undefined, envDir: string | undefined): CorporaLocation {
  const common = { sourcesFile: SOURCES_MANIFEST, languagesFile: LANGUAGES_MANIFEST, sample: false };
  // A corpora directory may carry its own sources manifest (the sample corpus does).
  const given = (dir: string, why: string): CorporaLocation => {
    const own = path.join(dir, 'sources.json');
    if (!existsSync(own)) return { ...common, dir, why };
    const sample = loadJsonFile(own, SourcesFileSchema).sample;
    return { ...common, dir, sourcesFile: own, sample, why: `${why}, with its own sources.json` };
  };
  if (explicit) return given(path.resolve(explicit), '--corpora');
  if (envDir) return given(path.resolve(envDir), 'CORPORA_DIR');
  for (const [dir, why] of [
    [path.join(REPO_ROOT, 'corpora', 'raw'), 'corpora/raw/'],
    [path.resolve(REPO_ROOT, '..', 'shared', 'corpora'), '../shared/corpora/'],
  ] as const) {
    if (hasAnySource(dir, SOURCES_MANIFEST)) return { ...common, dir, why };
  }
  return { ...given(SAMPLE_DIR, 'no raw corpora found: sample corpus'), sample: true };
}

/** Files whose content shapes the snapshot: the build code and the shared text/schema modules. */
function codeFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.ts')) out.push(full);
    }
  };
  // The compiler, and what it runs of the package and of the shared code: the format (text folding included), the
  // languages' rules and the schemas. The reader is left out: a change to it needs no new snapshot.
  walk(path.join(REPO_ROOT, 'snapshot/compiler'));
  walk(path.join(REPO_ROOT, 'snapshot/languages'));
  for (const f of ['services/shared/schemas.ts', 'services/shared/vocabulary.ts']) out.push(path.join(REPO_ROOT, f));
  walk(path.join(REPO_ROOT, 'snapshot/format'));
  return out;
}

export interface InputChecksums {
  formatVersion: number;
  /** Source file (relative to the corpora dir) → sha256. */
  files: Record<string, string>;
  manifests: Record<string, string>;
  code: string;
  /** One hash over everything above: --if-changed compares it. */
  combined: string;
}

export function inputChecksums(location: CorporaLocation, sourceFiles: readonly string[]): InputChecksums {
  const files: Record<string, string> = {};
  for (const f of sourceFiles) files[f] = sha256OfFile(path.join(location.dir, f));
  const manifests = {
    sources: sha256OfFile(location.sourcesFile),
    languages: sha256OfFile(location.languagesFile),
  };
  const code = createHash('sha256');
  for (const f of codeFiles()) code.update(path.relative(REPO_ROOT, f)).update('\0').update(readFileSync(f));
  const codeHash = code.digest('hex');
  const combined = createHash('sha256')
    .update(JSON.stringify({ formatVersion: SNAPSHOT_FORMAT_VERSION, files, manifests, code: codeHash }))
    .digest('hex');
  return { formatVersion: SNAPSHOT_FORMAT_VERSION, files, manifests, code: codeHash, combined };
}
