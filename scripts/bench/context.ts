// What a bench section is, what it runs with (the code measured, the options, a temporary directory, the
// work sections share) and the shape of a run's results file. A new measurement is a new section: a file
// exporting a Section, its result type added to SectionResults, and its place in SECTIONS (sections.ts).
import type { BenchOptions } from './args.ts';
import type { CompressionResult } from './compression-loop.ts';
import type { FloodsResult } from './floods.ts';
import type { HttpResult } from './http.ts';
import type { Busyness, MachineInfo } from './machine.ts';
import type { ManyClientsResult } from './many-clients.ts';
import type { MeteringResult } from './metering.ts';
import type { ScalingResult } from './scaling.ts';
import type { SearchResult } from './search.ts';
import type { Workload } from './workload.ts';
import type { ClientPriority } from './wrk.ts';

/** The code measured: the working tree, or the --compare ref checked out in a temporary worktree. */
export interface Subject {
  /** "working tree", or the ref as given. */
  name: string;
  root: string;
  /** The commit checked out (for the working tree, HEAD, with "+ uncommitted changes" when it has any). */
  commit: string;
}

/** A snapshot built by the subject's own build under /usr/bin/time. */
export interface BuiltSnapshot {
  path: string;
  buildSeconds: number;
  buildPeakRssMb: number;
  snapshotMb: number;
}

export interface SectionResults {
  http?: HttpResult;
  search?: SearchResult;
  scaling?: ScalingResult;
  metering?: MeteringResult;
  'many-clients'?: ManyClientsResult;
  compression?: CompressionResult;
  floods?: FloodsResult;
}
export type SectionId = keyof SectionResults;

export interface BenchContext {
  opts: BenchOptions;
  subject: Subject;
  /** How wrk is scheduled, settled once for the whole run. */
  client: ClientPriority;
  /** This subject's own temporary directory, and the log every command's output goes to. */
  dir: string;
  log: string;
  /** Built on first call, once per subject. */
  realSnapshot(): Promise<BuiltSnapshot>;
  /** Drawn once, from the working tree's real snapshot, and loaded the same way on every subject. */
  workload(): Promise<Workload>;
  /** What the sections before this one measured on this subject. */
  results: SectionResults;
}

/** One figure of a section, as --compare sets the two subjects side by side. */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  better: 'higher' | 'lower';
}

export interface Section<K extends SectionId> {
  id: K;
  run(ctx: BenchContext): Promise<NonNullable<SectionResults[K]>>;
  /** The section of the report (markdown, from a "## " heading on), with the other sections of its subject. */
  render(result: NonNullable<SectionResults[K]>, sections: SectionResults, run: BenchResults): string;
  figures(result: NonNullable<SectionResults[K]>): Figure[];
}

export interface SubjectResults {
  subject: Subject;
  sections: SectionResults;
  errors: string[];
}

/** Bumped when the shape changes: --render reads only its own format. */
export const RESULTS_FORMAT = 1;

export interface BenchResults {
  format: typeof RESULTS_FORMAT;
  startedAt: string;
  finishedAt: string;
  command: string;
  options: BenchOptions;
  machine: MachineInfo;
  /** Other load on the machine, before and after the measurements. */
  load: Busyness[];
  /** How wrk was scheduled (wrk.ts, clientPriority). */
  wrkPriority: string;
  /** The real corpora every subject built: the directory, and why it was chosen. */
  corpora: string;
  /** The working tree first, then the --compare ref. */
  subjects: SubjectResults[];
}
