// Frequency ranks from the Unilex lists: each line credited to the entry it writes, ranks per entry, isCommon.
import type Database from 'better-sqlite3';

import { fold } from '../format/text.ts';
import type { AlignedText } from './aligned-text.ts';
import { CompoundEvidence } from './compound-evidence.ts';
import { Readings } from './readings.ts';
import type { Reading } from './readings.ts';
import type { FrequencyRecord } from './records.ts';
import type { ReportBuilder } from './report.ts';

/**
 * An entry is common when it ranks in the top COMMON_RANK_LIMIT entries of its language by the frequency its list
 * credits to it (rank 1 = most frequent). 1,000 covers the everyday core vocabulary of a language; the Igbo list has
 * only 700 forms, so every Igbo entry it ranks counts as common.
 */
export const COMMON_RANK_LIMIT = 1000;
/** The lines of the frequency lists, credited to entries once the entries are known (creditFrequencies). */
export class FrequencyTable {
  readonly lines: FrequencyRecord[] = [];

  add(record: FrequencyRecord): void {
    this.lines.push(record);
  }

  languages(): string[] {
    return [...new Set(this.lines.map((l) => l.language))];
  }
}

export function isCommonRank(rank: number | null): boolean {
  return rank !== null && rank <= COMMON_RANK_LIMIT;
}

/**
 * Credits each line to the entry its form writes (snapshot/compiler/readings.ts: the form's marks must agree, so
 * Yoruba tì is not tí, and an untoned form can be any entry that folds like it): to the only such entry, or to those
 * the aligned text shows, by their share (shownReadings); otherwise the line is rejected, never pooled onto every
 * homograph. A form no entry is written as (Igbo jiri "held, used") goes to the entries the language's inflection
 * rules read it as (Readings.analysed), only where the evidence shows which (-jì "take; hold; use", not -ji "break"),
 * even when the rules find one: an inflected form's frequency orders a root's tone homographs, which untoned text
 * cannot tell apart. An entry's frequency is the sum of its lines; it ranks among its language's entries. Returns
 * entry key → rank.
 */
export function creditFrequencies(
  db: Database.Database,
  table: FrequencyTable,
  texts: ReadonlyMap<string, AlignedText>,
  report: ReportBuilder,
): Map<string, number> {
  const ranks = new Map<string, number>();
  for (const language of table.languages()) {
    const lines = table.lines.filter((l) => l.language === language);
    const wanted = new Set(lines.map((l) => fold(l.form)));
    const readings = new Readings(db, language, wanted);
    const compounds = new CompoundEvidence(db, language, wanted);
    const text = texts.get(language);
    const credited = new Map<string, number>();
    for (const line of lines) {
      // A form no entry is written as (Igbo jiri, Swahili alisema) is read by the language's inflection rules.
      const written = readings.of(line.form);
      const found = written.length > 0 ? written : readings.analysed(line.form);
      const candidates = found.map((r) => r.entryKey);
      // A reading by the rules is a guess: it is credited only where the evidence shows it, even when it is the only one.
      const shares = candidates.length === 1 && written.length > 0 ? new Map([[candidates[0], 1]]) : shownReadings(found, line.form, readings, compounds, text);
      if (shares.size === 0) {
        report.rejected(
          line.sourceId,
          candidates.length === 0
            ? 'no entry can be written so'
            : written.length === 0
              ? 'read as an inflected form, and the aligned text does not show of which entry'
              : 'several entries can be written so, and the aligned text does not show which',
        );
        continue;
      }
      report.imported(line.sourceId);
      for (const [entry, share] of shares) credited.set(entry, (credited.get(entry) ?? 0) + line.frequency * share);
    }
    const order = [...credited].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    order.forEach(([key], i) => ranks.set(key, i + 1));
  }
  return ranks;
}

/**
 * How a form that several entries can be written as divides among them, by the first evidence that tells:
 * 1. the English lines of the sentences using it: by how far beyond chance they hold each reading's meaning, among
 *    the readings the text shows (AlignedText.shown); a reading the English does not show gets nothing, however
 *    common its spelling;
 * 2. where the English shows none, the lexicon's compounds that the text holds with their meaning (CompoundEvidence:
 *    onye isī "leader" is onye "person", not ònye "who?"), by their lines;
 * 3. the source's own examples that write the word (Readings.examplesWriting: mbà "nation" has three, mba
 *    "scolding" none), by their number, for the readings that are headwords;
 * 4. the lexicon's compounds the text holds, whatever their English says (CompoundEvidence.held), by their sentences.
 * The English and the compounds are not asked when a reading has no meaning an English line could show (a particle
 * glossed "of"): its absence from them says nothing, and the line must not go to a rare homograph (Swahili la "eat"
 * beside la "of"). Empty when nothing tells.
 */
function shownReadings(
  found: readonly Reading[],
  form: string,
  readings: Readings,
  compounds: CompoundEvidence,
  text: AlignedText | undefined,
): Map<string, number> {
  const candidates = found.map((r) => r.entryKey);
  if (!text || candidates.length === 0) return new Map();
  if (candidates.every((key) => readings.meaningsOf(key).length > 0)) {
    const sentences = text.sentencesWritten(form);
    const shown = candidates.map((key) => ({ key, ...text.shown(sentences, readings.meaningsOf(key)) })).filter((c) => c.shown);
    if (shown.length > 0) return proportions(new Map(shown.map((c) => [c.key, c.hits - c.expected])));
    const named = compounds.named(form, found, text, (key) => readings.meaningsOf(key));
    if (named.size > 0) return proportions(named);
  }
  const inExamples = found.filter((r) => r.via === 'headword').map((r) => [r.entryKey, readings.examplesWriting(r.entryKey, form)] as const);
  if (inExamples.some(([, n]) => n > 0)) return proportions(new Map(inExamples.filter(([, n]) => n > 0)));
  if (candidates.some((key) => readings.meaningsOf(key).length === 0)) return new Map();
  return proportions(compounds.heldLines(form, found, text));
}

/** Each key's share of the total weight. */
function proportions(weights: ReadonlyMap<string, number>): Map<string, number> {
  const total = [...weights.values()].reduce((n, w) => n + w, 0);
  return new Map([...weights].map(([key, w]) => [key, w / total]));
}
