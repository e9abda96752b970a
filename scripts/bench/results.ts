// The shape of one bench run's results, as written to bench-out/ and rendered into BENCHMARKS.md.
import type { BenchOptions } from './args.ts';
import type { LimitTiming } from './bound-limit.ts';
import type { KeyFilterTiming } from './key-filters.ts';
import type { ParseGcRow } from './query-parse-gc.ts';
import type { ScenarioResult } from './http-bench.ts';
import type { Busyness, MachineInfo } from './machine.ts';
import type { ScalingResult } from './scaling.ts';
import type { LoopResult } from './search-loop.ts';
import type { WorkerMemory } from './proc-stats.ts';

export interface BenchResults {
  startedAt: string;
  finishedAt: string;
  command: string;
  options: BenchOptions;
  machine: MachineInfo;
  busy: Busyness[];
  snapshot?: { version: string; entries: number; sizeMb: number };
  queryMix?: { count: number; byKind: Record<string, number>; withLanguage: number; examples: string[]; rawPool: number };
  http?: ScenarioResult[];
  memory?: WorkerMemory[];
  restarts?: Record<string, number>;
  bareLoop?: LoopResult;
  /** The reader's statement shapes with a bound LIMIT and with the LIMIT in the SQL (scripts/bench/bound-limit.ts). */
  limitTimings?: LimitTiming[];
  /** The reader with its key filters and without, over the mix (scripts/bench/key-filters.ts). */
  keyFilters?: KeyFilterTiming[];
  /** The mix's query strings parsed with z.preprocess and as production does, with GC counts (scripts/bench/query-parse-gc.ts). */
  parseGc?: ParseGcRow[];
  scaling?: ScalingResult[];
  profile?: {
    scenario: string;
    files: string[];
    /** The SVG flame graph of the load window (absent in results written before it was drawn). */
    flameGraph?: string;
    hot: HotFunction[];
    rps: number;
  };
  errors: string[];
  /** Why wrk ran under another load class than the default (absent when it ran under the one asked for). */
  loadClassNotice?: string;
}

export interface HotFunction {
  selfPercent: number;
  totalPercent: number;
  name: string;
  location: string;
  /** The commonest caller chains (nearest first) with their share of this function's samples. */
  callers: string[];
}
