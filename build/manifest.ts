// The corpus manifests (corpora/sources.json, corpora/languages.json): zod schemas and loading.
import { readFileSync } from 'node:fs';

import { z } from 'zod';

import { LicenceSchema } from '../services/shared/schemas.ts';

export const IMPORTERS = ['igbo-api-json', 'kaikki-json', 'conllu', 'unilex-tsv'] as const;
export type ImporterName = (typeof IMPORTERS)[number];

export const SourceManifestSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]+$/),
  name: z.string().min(1),
  language: z.string().min(2),
  importer: z.enum(IMPORTERS),
  /** Path of the data file relative to the corpora directory. */
  file: z.string().min(1),
  licence: LicenceSchema,
  attribution: z.string().min(1),
  url: z.string().url(),
  role: z.enum(['lexicon', 'examples', 'frequency']),
  /** Whether entries from this source count as verified (record-level doubts can still lower it). */
  verified: z.boolean(),
  /**
   * A lexicon that writes its headwords in a spelling of its own (a dialect's, a dictionary's): the website
   * says so on its entries, so that a reader who knows the standard spelling is not misled.
   */
  headwordSpelling: z
    .object({
      /** A few words for a result list, e.g. "Onitsha spelling". */
      label: z.string().min(1).max(40),
      /** One or two sentences for the entry page. */
      description: z.string().min(1).max(400),
    })
    .optional(),
});
export type SourceManifest = z.infer<typeof SourceManifestSchema>;

export const SourcesFileSchema = z.object({
  /** True for the project-written sample corpus: snapshots built from it are flagged as sample data. */
  sample: z.boolean().default(false),
  sources: z.array(SourceManifestSchema).min(1),
});

export const LanguageManifestSchema = z.object({
  code: z.string().regex(/^[a-z]{2,3}$/),
  slug: z.string().regex(/^[a-z-]+$/),
  name: z.string().min(1),
  nativeName: z.string().min(1),
  status: z.enum(['active', 'preparing']),
});
export type LanguageManifest = z.infer<typeof LanguageManifestSchema>;

export const LanguagesFileSchema = z.object({ languages: z.array(LanguageManifestSchema).min(1) });

export class ManifestError extends Error {
  override readonly name = 'ManifestError';
}

export function loadJsonFile<T extends z.ZodTypeAny>(file: string, schema: T): z.infer<T> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new ManifestError(`${file}: cannot read manifest (${(cause as Error).message})`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ManifestError(`${file}: invalid manifest (${issues})`);
  }
  return parsed.data;
}

/** Loads both manifests and checks that every source names a declared language and ids are unique. */
export function loadManifests(sourcesFile: string, languagesFile: string): {
  sample: boolean;
  sources: SourceManifest[];
  languages: LanguageManifest[];
} {
  const { sample, sources } = loadJsonFile(sourcesFile, SourcesFileSchema);
  const { languages } = loadJsonFile(languagesFile, LanguagesFileSchema);
  const codes = new Set(languages.map((l) => l.code));
  const ids = new Set<string>();
  for (const source of sources) {
    if (!codes.has(source.language)) {
      throw new ManifestError(`${sourcesFile}: source ${source.id} names unknown language ${source.language}`);
    }
    if (ids.has(source.id)) throw new ManifestError(`${sourcesFile}: duplicate source id ${source.id}`);
    ids.add(source.id);
  }
  return { sample, sources, languages };
}
