// Frequency ranks from the Unilex lists: folded form → rank per language, and the isCommon rule.
import type { FrequencyRecord } from './records.ts';

/**
 * An entry is common when its folded form ranks in the top COMMON_RANK_LIMIT forms of its language's
 * frequency list (rank 1 = most frequent). 1,000 covers the everyday core vocabulary of a language;
 * the Igbo list has only 700 forms, so every Igbo form in it counts as common.
 */
export const COMMON_RANK_LIMIT = 1000;

interface KeyStats {
  frequency: number;
  sourceId: string;
}

/** Collects frequency lines; several forms folding to one key add up (ààbò, aabo). */
export class FrequencyTable {
  private readonly byLanguage = new Map<string, Map<string, KeyStats>>();
  private ranks: Map<string, Map<string, number>> | null = null;

  /** Returns false when the key was already seen in this language (the line is merged into it). */
  add(record: FrequencyRecord): boolean {
    let table = this.byLanguage.get(record.language);
    if (!table) {
      table = new Map();
      this.byLanguage.set(record.language, table);
    }
    const seen = table.get(record.key);
    this.ranks = null;
    if (seen) {
      seen.frequency += record.frequency;
      return false;
    }
    table.set(record.key, { frequency: record.frequency, sourceId: record.sourceId });
    return true;
  }

  /** Rank of a folded form in its language (1 = most frequent; ties broken by the form), or null. */
  rank(language: string, folded: string): number | null {
    if (!this.ranks) this.ranks = this.computeRanks();
    return this.ranks.get(language)?.get(folded) ?? null;
  }

  /** Every (language, key, rank), for handing the table to worker threads. */
  rankList(): [string, string, number][] {
    if (!this.ranks) this.ranks = this.computeRanks();
    const out: [string, string, number][] = [];
    for (const [lang, table] of this.ranks) for (const [key, rank] of table) out.push([lang, key, rank]);
    return out;
  }

  /** Keys of a language with the source that first gave them (for the report). */
  keys(language?: string): { language: string; key: string; sourceId: string }[] {
    const out: { language: string; key: string; sourceId: string }[] = [];
    for (const [lang, table] of this.byLanguage) {
      if (language !== undefined && lang !== language) continue;
      for (const [key, stats] of table) out.push({ language: lang, key, sourceId: stats.sourceId });
    }
    return out;
  }

  private computeRanks(): Map<string, Map<string, number>> {
    const out = new Map<string, Map<string, number>>();
    for (const [lang, table] of this.byLanguage) {
      const sorted = [...table.entries()].sort((a, b) => b[1].frequency - a[1].frequency || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      out.set(lang, new Map(sorted.map(([key], i) => [key, i + 1])));
    }
    return out;
  }
}

export function isCommonRank(rank: number | null): boolean {
  return rank !== null && rank <= COMMON_RANK_LIMIT;
}
