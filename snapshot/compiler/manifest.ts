// The corpus manifests (corpora/sources.json, corpora/languages.json): zod schemas and loading.
import { readFileSync } from 'node:fs';

import { z } from 'zod';

import { LicenceSchema } from '../../services/shared/schemas.ts';
import type { Importer } from './importers/importer.ts';
import { IMPORTERS, IMPORTER_NAMES } from './importers/registry.ts';
import type { ImporterName } from './importers/registry.ts';

/** The fields every source has, whatever its format. */
export const CommonSourceSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]+$/),
  name: z.string().min(1),
  language: z.string().min(2),
  /** Path of the data file relative to the corpora directory. */
  file: z.string().min(1),
  licence: LicenceSchema,
  attribution: z.string().min(1),
  url: z.string().url(),
  role: z.enum(['lexicon', 'examples', 'frequency', 'pronunciation', 'forms']),
  /**
   * Whether the source marks its entries as reviewed by a person (an edited dictionary that says so): the entries'
   * isVerified. No source in corpora/ does; a record-level doubt (an inferred form) lowers it still.
   */
  verified: z.boolean(),
  /**
   * A lexicon that writes its headwords in a spelling of its own (a dialect's, a dictionary's): the website
   * says so on its entries, so that a reader who knows the standard spelling is not misled.
   */
  /**
   * A lexicon that records one dialect rather than the standard language (Williamson's Igbo dictionary: Onitsha):
   * every entry of it says so, in the API (Entry.dialect) and on the website, so that a word or meaning of that
   * dialect is not taken for the language's everywhere.
   */
  dialect: z
    .object({
      /** The dialect's name, e.g. "Onitsha". */
      name: z.string().min(1).max(40),
      /** One or two sentences that every entry of the source carries. */
      note: z.string().min(1).max(400),
    })
    .optional(),
  headwordSpelling: z
    .object({
      /** A few words for a result list, e.g. "Onitsha spelling". */
      label: z.string().min(1).max(40),
      /** One or two sentences for the entry page. */
      description: z.string().min(1).max(400),
    })
    .optional(),
});
export type CommonSource = z.infer<typeof CommonSourceSchema>;

/** A source in the format `N`: the common fields, `importer`, and that importer's own options. */
export type SourceOf<N extends ImporterName> = CommonSource & { importer: N } & z.infer<(typeof IMPORTERS)[N]['options']>;
export type SourceManifest = { [N in ImporterName]: SourceOf<N> }[ImporterName];

/**
 * One source: `importer` names a format of the registry (snapshot/compiler/importers/registry.ts), and the
 * fields that format reads are checked with it. Made from the registry at load, so its type is spelt out above
 * (zod cannot infer a union mapped over the registry's keys).
 */
export const SourceManifestSchema = z.discriminatedUnion(
  'importer',
  IMPORTER_NAMES.map((name) => CommonSourceSchema.extend({ importer: z.literal(name) }).merge(IMPORTERS[name].options)) as unknown as [
    z.AnyZodObject,
    ...z.AnyZodObject[],
  ],
) as unknown as z.ZodType<SourceManifest, z.ZodTypeDef, unknown>;

/** A language is served once the snapshot holds this many of its entries with an English gloss. */
export const ACTIVE_AT_GLOSSED_ENTRIES = 1000;

export const SourcesFileSchema = z.object({
  /** True for the project-written sample corpus: snapshots built from it are flagged as sample data. */
  sample: z.boolean().default(false),
  /** Glossed entries that make a language active (the sample corpus, a few dozen records, sets its own). */
  activeAtGlossedEntries: z.number().int().min(1).default(ACTIVE_AT_GLOSSED_ENTRIES),
  sources: z.array(SourceManifestSchema).min(1),
});

/**
 * A language: whether it is active follows from the snapshot's data (ACTIVE_AT_GLOSSED_ENTRIES), never from here;
 * its own rules, if it has any, are its module in snapshot/languages/.
 */
export const LanguageManifestSchema = z.object({
  code: z.string().regex(/^[a-z]{2,3}$/).describe('ISO 639-1 code, or ISO 639-3 where there is none'),
  slug: z.string().regex(/^[a-z-]+$/),
  name: z.string().min(1),
  nativeName: z.string().min(1),
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

export interface Manifests {
  sample: boolean;
  activeAtGlossedEntries: number;
  sources: SourceManifest[];
  languages: LanguageManifest[];
}

/** Loads both manifests and checks that every source names a declared language and ids are unique. */
export function loadManifests(sourcesFile: string, languagesFile: string): Manifests {
  const { sample, activeAtGlossedEntries, sources } = loadJsonFile(sourcesFile, SourcesFileSchema);
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
  return { sample, activeAtGlossedEntries, sources, languages };
}

/** Every file the build reads for these sources (the data files and the other files their formats read), once each. */
export function sourceFiles(sources: readonly SourceManifest[]): string[] {
  const files = sources.flatMap((s) => [s.file, ...((IMPORTERS[s.importer] as Importer).otherFiles?.(s) ?? [])]);
  return [...new Set(files.filter((f): f is string => f !== undefined))];
}
