// Phase 1: every source file through the importer of its format (importers/registry.ts) into the staging, each
// record counted in the report.
import type Database from 'better-sqlite3';

import { FrequencyTable } from './frequency.ts';
import type { Importer } from './importers/importer.ts';
import { IMPORTERS } from './importers/registry.ts';
import { sourceStaging, stagingStatements } from './importers/staging.ts';
import type { Imported } from './importers/staging.ts';
import type { SourceManifest } from './manifest.ts';
import type { Progress } from './progress.ts';
import type { ReportBuilder } from './report.ts';

export function importSources(
  db: Database.Database,
  corporaDir: string,
  sources: readonly SourceManifest[],
  report: ReportBuilder,
  progress: Progress,
): Imported {
  const statements = stagingStatements(db);
  const imported: Imported = { frequency: new FrequencyTable(), sentences: [], aligned: [] };
  for (const source of sources) {
    const staging = sourceStaging({ sourceId: source.id, corporaDir, file: source.file, statements, imported, report, progress });
    report.source(source.id, staging.file, source.language);
    progress.phase(`import ${source.id}`, 0);
    // Each importer takes the sources of its own format, checked so by the manifest's schema; the registry's
    // type cannot say which entry goes with which source, so it is widened here.
    const importer: Importer = IMPORTERS[source.importer];
    db.transaction(() => importer.read(source, staging))();
  }
  progress.end();
  return imported;
}
