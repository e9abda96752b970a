// Pronunciations attach to the entries they are of: the same letters, and tones that agree with the entry's own.
import type Database from 'better-sqlite3';

import { languageRules } from '../languages/index.ts';
import type { ToneOrthography } from '../languages/rules.ts';
import type { SourceManifest } from './manifest.ts';
import type { ReportBuilder } from './report.ts';
import { ipaTones, lengthAgreement, tonesAgree } from './tones.ts';
import { lettersOf } from './written-forms.ts';

interface PronRow {
  seq: number;
  source_id: string;
  key: string;
  word: string;
  ipa: string;
}

interface EntryRow {
  key: string;
  folded: string;
  exact_form: string;
  tone_marked: number;
}

export interface PronunciationCoverage {
  /** Served entries of the language. */
  entries: number;
  /** Of them, entries with a pronunciation. */
  withPronunciation: number;
}

/** Why a pronunciation row is not shown on an entry with its folded word (the report counts each). */
export const PRONUNCIATION_REJECTIONS = {
  letters: "its word's letters are not the entry's (ọṣẹ is not oṣe, baƙī not bā̀kī)",
  tones: "its tones disagree with the entry's tone marks",
  unmarked: 'the entry carries no tone marks, and the transcriptions of its word disagree on the tones',
  notServed: 'its language is not served yet (fewer entries with an English gloss than a language needs to be active)',
} as const;

/**
 * For each served entry, the rows of its folded word that are of it: their word has the entry's letters (tone and
 * length marks aside: underdots and hooked letters are letters), and, in a language that writes tones, their IPA's
 * tones are the entry's tone-marked form's (snapshot/compiler/tones.ts; Yoruba unmarked mid, Hausa unmarked high);
 * an entry without tone marks takes its word's rows only when they agree on one tone pattern. Sources in manifest
 * order, a fallback source only where no other source has the word; best agreement first (vowel length as written),
 * and no row shown that contradicts the entry. A row is imported when an entry shows it, merged when it repeats
 * another row of its source, rejected otherwise with the reason; every (row, entry) left out is counted by reason.
 */
export function attachPronunciations(db: Database.Database, sources: readonly SourceManifest[], report: ReportBuilder): Map<string, PronunciationCoverage> {
  const coverage = new Map<string, PronunciationCoverage>();
  const order = new Map(sources.map((s, i) => [s.id, i]));
  const fallback = new Set(sources.filter((s) => 'fallback' in s && s.fallback).map((s) => s.id));
  const insert = db.prepare('INSERT INTO stage.entry_pron (entry_key, rank, ipa, source_id) VALUES (?, ?, ?, ?)');
  const langs = db.prepare('SELECT DISTINCT language FROM stage.pron').pluck().all() as string[];
  db.transaction(() => {
    for (const language of langs) {
      const { tones } = languageRules(language);
      const rows = db.prepare<[string], PronRow>('SELECT seq, source_id, key, word, ipa FROM stage.pron WHERE language = ? ORDER BY seq').all(language);
      const { byKey, duplicate } = rowsByWord(rows, order);
      const entries = db.prepare<[string], EntryRow>('SELECT key, folded, exact_form, tone_marked FROM stage.entry WHERE language = ?').all(language);
      const shownOn = new Map<number, number>();
      const refusedFor = new Map<number, string>();
      let withPronunciation = 0;
      for (const entry of entries) {
        const all = byKey.get(entry.folded) ?? [];
        const preferred = all.filter((r) => !fallback.has(r.source_id));
        const candidates = preferred.length > 0 ? preferred : all;
        const shown = rowsOfEntry(entry, candidates, tones);
        for (const [row, reason] of shown.refused) {
          report.pronunciationRejected(language, reason);
          refusedFor.set(row.seq, reason);
        }
        if (shown.rows.length === 0) continue;
        withPronunciation += 1;
        const ipas = new Set<string>();
        for (const r of shown.rows) {
          shownOn.set(r.seq, (shownOn.get(r.seq) ?? 0) + 1);
          if (ipas.has(r.ipa)) continue;
          ipas.add(r.ipa);
          insert.run(entry.key, ipas.size - 1, r.ipa, r.source_id);
          report.pronunciationAttached(language);
        }
      }
      coverage.set(language, { entries: entries.length, withPronunciation });
      for (const row of rows) {
        if (shownOn.has(row.seq)) report.imported(row.source_id);
        else if (duplicate.has(row.seq)) report.merged(row.source_id, 'same word and transcription as an earlier row');
        else if (fallback.has(row.source_id) && byKey.get(row.key)?.some((r) => !fallback.has(r.source_id))) {
          report.rejected(row.source_id, 'fallback only: another source has this word');
        } else report.rejected(row.source_id, refusedFor.get(row.seq) ?? (entries.length === 0 ? PRONUNCIATION_REJECTIONS.notServed : 'no served entry with this word'));
      }
    }
  })();
  return coverage;
}

/** Rows by folded word, in manifest source order, without rows that repeat one of their source's. */
function rowsByWord(rows: readonly PronRow[], order: ReadonlyMap<string, number>): { byKey: Map<string, PronRow[]>; duplicate: Set<number> } {
  const byKey = new Map<string, PronRow[]>();
  const duplicate = new Set<number>();
  for (const row of rows) {
    const list = byKey.get(row.key) ?? [];
    if (list.some((r) => r.source_id === row.source_id && r.ipa === row.ipa && r.word === row.word)) duplicate.add(row.seq);
    else list.push(row);
    byKey.set(row.key, list);
  }
  for (const list of byKey.values()) list.sort((a, b) => (order.get(a.source_id) ?? 0) - (order.get(b.source_id) ?? 0) || a.seq - b.seq);
  return { byKey, duplicate };
}

/** The rows an entry shows, best first, and the rows of its word it refuses, with why (see attachPronunciations). */
function rowsOfEntry(entry: EntryRow, candidates: readonly PronRow[], tones: ToneOrthography | undefined): { rows: PronRow[]; refused: [PronRow, string][] } {
  const refused: [PronRow, string][] = [];
  const letters = lettersOf(entry.exact_form);
  const same = candidates.filter((r) => {
    if (lettersOf(r.word) === letters) return true;
    refused.push([r, PRONUNCIATION_REJECTIONS.letters]);
    return false;
  });
  if (!tones) return { rows: same, refused };
  if (!entry.tone_marked) {
    const patterns = new Set(same.map((r) => ipaTones(r.ipa, tones.unmarked).join('')));
    if (patterns.size <= 1) return { rows: same, refused };
    for (const r of same) refused.push([r, PRONUNCIATION_REJECTIONS.unmarked]);
    return { rows: [], refused };
  }
  const agreeing = same.filter((r) => {
    if (tonesAgree(entry.exact_form, r.ipa, tones)) return true;
    refused.push([r, PRONUNCIATION_REJECTIONS.tones]);
    return false;
  });
  // Best agreement first: vowel length as the form writes it (Hausa ā ~ aː); the sort is stable in source order.
  const rows = [...agreeing].sort((a, b) => lengthAgreement(entry.exact_form, b.ipa) - lengthAgreement(entry.exact_form, a.ipa));
  return { rows, refused };
}
