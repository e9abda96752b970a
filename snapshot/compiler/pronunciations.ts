// Pronunciations attach to entries by folded word: chosen by the entry's tones where they can be told.
import type Database from 'better-sqlite3';

import { languageRules } from '../languages/index.ts';
import type { SourceManifest } from './manifest.ts';
import type { ReportBuilder } from './report.ts';
import { tonesAgree } from './tones.ts';

interface PronRow {
  seq: number;
  source_id: string;
  key: string;
  ipa: string;
}

export interface PronunciationCoverage {
  /** Served entries of the language. */
  entries: number;
  /** Of them, entries with a pronunciation. */
  withPronunciation: number;
}

/**
 * For each served entry, the rows whose folded word is its folded form: sources in manifest order, a fallback
 * source only where no other source has the word. The entry shows first the first row whose tones agree with its
 * tone-marked form (when the language writes tones and the form carries them), else the first row; the others
 * follow in the full entry. A row is imported when an entry shows it, merged when it repeats another row of its
 * source, and rejected when no entry has its word or a preferred source has the word.
 */
export function attachPronunciations(
  db: Database.Database,
  sources: readonly SourceManifest[],
  report: ReportBuilder,
): Map<string, PronunciationCoverage> {
  const coverage = new Map<string, PronunciationCoverage>();
  const order = new Map(sources.map((s, i) => [s.id, i]));
  const fallback = new Set(sources.filter((s) => 'fallback' in s && s.fallback).map((s) => s.id));
  const insert = db.prepare('INSERT INTO stage.entry_pron (entry_key, rank, ipa, source_id) VALUES (?, ?, ?, ?)');
  const langs = db.prepare('SELECT DISTINCT language FROM stage.pron').pluck().all() as string[];
  db.transaction(() => {
    for (const language of langs) {
      const { tones } = languageRules(language);
      const rows = db.prepare<[string], PronRow>('SELECT seq, source_id, key, ipa FROM stage.pron WHERE language = ? ORDER BY seq').all(language);
      const byKey = new Map<string, PronRow[]>();
      const used = new Set<number>();
      const duplicate = new Set<number>();
      for (const row of rows) {
        const list = byKey.get(row.key) ?? [];
        if (list.some((r) => r.source_id === row.source_id && r.ipa === row.ipa)) duplicate.add(row.seq);
        else list.push(row);
        byKey.set(row.key, list);
      }
      for (const list of byKey.values()) list.sort((a, b) => (order.get(a.source_id) ?? 0) - (order.get(b.source_id) ?? 0) || a.seq - b.seq);
      const entries = db
        .prepare<[string], { key: string; folded: string; exact_form: string; tone_marked: number }>(
          'SELECT key, folded, exact_form, tone_marked FROM stage.entry WHERE language = ?',
        )
        .all(language);
      let withPronunciation = 0;
      for (const entry of entries) {
        const all = byKey.get(entry.folded) ?? [];
        const preferred = all.filter((r) => !fallback.has(r.source_id));
        const candidates = preferred.length > 0 ? preferred : all;
        if (candidates.length === 0) continue;
        withPronunciation += 1;
        const fits = tones && entry.tone_marked ? candidates.find((r) => tonesAgree(entry.exact_form, r.ipa, tones)) : undefined;
        const shown = fits ? [fits, ...candidates.filter((r) => r !== fits)] : candidates;
        const ipas = new Set<string>();
        for (const r of shown) {
          used.add(r.seq);
          if (ipas.has(r.ipa)) continue;
          ipas.add(r.ipa);
          insert.run(entry.key, ipas.size - 1, r.ipa, r.source_id);
        }
      }
      coverage.set(language, { entries: entries.length, withPronunciation });
      for (const row of rows) {
        if (used.has(row.seq)) report.imported(row.source_id);
        else if (duplicate.has(row.seq)) report.merged(row.source_id, 'same word and transcription as an earlier row');
        else if (fallback.has(row.source_id) && byKey.get(row.key)?.some((r) => !fallback.has(r.source_id))) {
          report.rejected(row.source_id, 'fallback only: another source has this word');
        } else report.rejected(row.source_id, 'no served entry with this word');
      }
    }
  })();
  return coverage;
}
