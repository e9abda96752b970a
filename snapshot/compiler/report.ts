// The build report: per source, records read = imported + merged + rejected, with reasons and notes.
import type { LanguageStanding } from './activation.ts';

export interface SourceReport {
  source: string;
  /** The language the source covers (its manifest's language). */
  language: string;
  file: string;
  read: number;
  imported: number;
  merged: number;
  rejected: number;
  mergedBy: Record<string, number>;
  rejectedBy: Record<string, number>;
  /** Defects fixed on the way in (not dispositions; a record can carry several). */
  notes: Record<string, number>;
}

/** What the build attached to a language's entries, and left out with the reason (one count per word and entry). */
export interface AttachmentReport {
  attached: number;
  rejectedBy: Record<string, number>;
}

/** Where a language stands: its sources' records, its glossed entries (the activation rule) and what is served. */
export interface LanguageReport {
  code: string;
  status: 'active' | 'preparing';
  glossedEntries: number;
  /** Entries served (0 for a preparing language). */
  entries: number;
  withPronunciation: number;
  /** Example sentences attached to entries (one per sentence and entry), and those left out by reason. */
  examples: AttachmentReport;
  /** Pronunciation rows shown on entries (one per row and entry), and those left out by reason. */
  pronunciations: AttachmentReport;
  /** Served entries without an English gloss (the build's target is none). */
  emptyGlosses: number;
  sources: string[];
  read: number;
  imported: number;
  merged: number;
  rejected: number;
}

export interface BuildReport {
  sample: boolean;
  corporaDir: string;
  out: string;
  contentHash: string;
  builtAt: string;
  durationMs: number;
  sizeBytes: number;
  entries: number;
  entriesByLanguage: Record<string, number>;
  languages: LanguageReport[];
  sources: SourceReport[];
  /** The open-data files written beside the snapshot (docs/downloads.md). */
  downloads: { dir: string; files: number; bytes: number };
}

function bump(map: Record<string, number>, key: string, by = 1): void {
  map[key] = (map[key] ?? 0) + by;
}

/** Accumulates dispositions per source; every record read must end in exactly one of them. */
export class ReportBuilder {
  private readonly bySource = new Map<string, SourceReport>();
  private readonly examples = new Map<string, AttachmentReport>();
  private readonly pronunciations = new Map<string, AttachmentReport>();

  source(id: string, file = '', language = ''): SourceReport {
    let report = this.bySource.get(id);
    if (!report) {
      report = { source: id, language, file, read: 0, imported: 0, merged: 0, rejected: 0, mergedBy: {}, rejectedBy: {}, notes: {} };
      this.bySource.set(id, report);
    }
    if (file !== '') report.file = file;
    if (language !== '') report.language = language;
    return report;
  }
  read(id: string, n = 1): void {
    this.source(id).read += n;
  }
  imported(id: string, n = 1): void {
    this.source(id).imported += n;
  }
  merged(id: string, reason: string, n = 1): void {
    const r = this.source(id);
    r.merged += n;
    bump(r.mergedBy, reason, n);
  }
  rejected(id: string, reason: string, n = 1): void {
    const r = this.source(id);
    r.rejected += n;
    bump(r.rejectedBy, reason, n);
  }
  note(id: string, note: string, n = 1): void {
    bump(this.source(id).notes, note, n);
  }
  /** Moves n records of a source from imported to merged or rejected (decided in a later step). */
  reclassify(id: string, to: 'merged' | 'rejected', reason: string, n = 1): void {
    this.source(id).imported -= n;
    if (to === 'merged') this.merged(id, reason, n);
    else this.rejected(id, reason, n);
  }
  sources(): SourceReport[] {
    return [...this.bySource.values()];
  }
  exampleAttached(language: string, n = 1): void {
    attachment(this.examples, language).attached += n;
  }
  exampleRejected(language: string, reason: string, n = 1): void {
    bump(attachment(this.examples, language).rejectedBy, reason, n);
  }
  pronunciationAttached(language: string, n = 1): void {
    attachment(this.pronunciations, language).attached += n;
  }
  pronunciationRejected(language: string, reason: string, n = 1): void {
    bump(attachment(this.pronunciations, language).rejectedBy, reason, n);
  }
  /** A language's attachments so far (zeros for a language with none). */
  attachments(language: string): { examples: AttachmentReport; pronunciations: AttachmentReport } {
    return { examples: attachment(this.examples, language), pronunciations: attachment(this.pronunciations, language) };
  }
}

function attachment(map: Map<string, AttachmentReport>, language: string): AttachmentReport {
  let r = map.get(language);
  if (!r) {
    r = { attached: 0, rejectedBy: {} };
    map.set(language, r);
  }
  return r;
}

/** What languageReports reads besides the sources: served and empty-gloss entries, IPA coverage, attachments. */
export interface LanguageFacts {
  entries(code: string): number;
  withPronunciation(code: string): number;
  emptyGlosses(code: string): number;
  attachments(code: string): { examples: AttachmentReport; pronunciations: AttachmentReport };
}

/** Where each language of the manifest stands, with its sources' counts summed. */
export function languageReports(standings: readonly LanguageStanding[], sources: readonly SourceReport[], facts: LanguageFacts): LanguageReport[] {
  return standings.map((s) => {
    const mine = sources.filter((r) => r.language === s.code);
    const sum = (field: 'read' | 'imported' | 'merged' | 'rejected'): number => mine.reduce((n, r) => n + r[field], 0);
    return {
      code: s.code,
      status: s.active ? 'active' : 'preparing',
      glossedEntries: s.glossedEntries,
      entries: facts.entries(s.code),
      withPronunciation: facts.withPronunciation(s.code),
      ...facts.attachments(s.code),
      emptyGlosses: facts.emptyGlosses(s.code),
      sources: mine.map((r) => r.source),
      read: sum('read'),
      imported: sum('imported'),
      merged: sum('merged'),
      rejected: sum('rejected'),
    };
  });
}

/** Errors when a source's counts do not add up: the build never drops a record silently. */
export function checkArithmetic(sources: readonly SourceReport[]): string[] {
  return sources
    .filter((s) => s.read !== s.imported + s.merged + s.rejected)
    .map((s) => `${s.source}: read ${s.read} != imported ${s.imported} + merged ${s.merged} + rejected ${s.rejected}`);
}

/** The report as a plain-text table for the terminal. */
export function formatReport(report: BuildReport): string {
  const table = (rows: string[][]): string[] => {
    const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
    const line = (r: string[]): string => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
    return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)];
  };
  const out = table([
    ['source', 'language', 'read', 'imported', 'merged', 'rejected'],
    ...report.sources.map((s) => [s.source, s.language, String(s.read), String(s.imported), String(s.merged), String(s.rejected)]),
  ]);
  out.push(
    '',
    ...table([
      ['language', 'status', 'read', 'imported', 'merged', 'rejected', 'glossed entries', 'served', 'with IPA', 'examples', 'IPA shown', 'empty gloss'],
      ...report.languages.map((l) => [
        l.code,
        l.status,
        String(l.read),
        String(l.imported),
        String(l.merged),
        String(l.rejected),
        String(l.glossedEntries),
        String(l.entries),
        String(l.withPronunciation),
        String(l.examples.attached),
        String(l.pronunciations.attached),
        String(l.emptyGlosses),
      ]),
    ]),
  );
  for (const s of report.sources) {
    const details = [
      ...Object.entries(s.mergedBy).map(([k, v]) => `  merged   ${String(v).padStart(6)}  ${k}`),
      ...Object.entries(s.rejectedBy).map(([k, v]) => `  rejected ${String(v).padStart(6)}  ${k}`),
      ...Object.entries(s.notes).map(([k, v]) => `  fixed    ${String(v).padStart(6)}  ${k}`),
    ];
    if (details.length > 0) out.push('', `${s.source}:`, ...details);
  }
  for (const l of report.languages) {
    const details = [
      ...Object.entries(l.examples.rejectedBy).map(([k, v]) => `  example left out       ${String(v).padStart(6)}  ${k}`),
      ...Object.entries(l.pronunciations.rejectedBy).map(([k, v]) => `  pronunciation left out ${String(v).padStart(6)}  ${k}`),
    ];
    if (details.length > 0) out.push('', `${l.code} (examples attached ${l.examples.attached}, pronunciations shown ${l.pronunciations.attached}, entries with an empty gloss ${l.emptyGlosses}):`, ...details);
  }
  const langs = Object.entries(report.entriesByLanguage).map(([k, v]) => `${k} ${v}`).join(', ');
  out.push(
    '',
    `entries: ${report.entries} (${langs})`,
    `snapshot: ${report.out} (${(report.sizeBytes / 1e6).toFixed(1)} MB, hash ${report.contentHash.slice(0, 16)}, ${(report.durationMs / 1000).toFixed(1)} s)`,
    `downloads: ${report.downloads.dir} (${report.downloads.files} files, ${(report.downloads.bytes / 1e6).toFixed(1)} MB gzipped)`,
  );
  if (report.sample) out.push('SAMPLE DATA: built from the bundled sample corpus, not the real corpora.');
  return out.join('\n');
}
