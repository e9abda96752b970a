// Standard Igbo spellings of the Onitsha (Williamson) forms: derived by rule, kept where Standard text attests them.
import type Database from 'better-sqlite3';

import { fold } from '../services/shared/text.ts';

/** The Igbo lexicon is Williamson's Onitsha dictionary (docs/standard-igbo.md). */
export const STANDARD_IGBO_LANGUAGE = 'ig';
/** Letters that may change at one place in a form: more places would multiply the candidates past use. */
const MAX_CHANGE_PLACES = 8;

/**
 * Regular correspondences between Onitsha and Standard Igbo spelling, on folded forms (docs/standard-igbo.md):
 * Onitsha l where Standard has r (mmilī ~ mmiri, ọlụ ~ ọrụ), f where Standard has h (ife ~ ihe, fa ~ ha,
 * afịa ~ ahịa), n between vowels where Standard has l (enū ~ elu, àná ~ ala), and nn where Standard has nr
 * (nni ~ nri). Each place may change or not: only spellings attested in Standard text are kept.
 */
const RULES: readonly { name: string; pattern: RegExp; standard: string }[] = [
  { name: 'l → r', pattern: /l/g, standard: 'r' },
  { name: 'f → h', pattern: /f/g, standard: 'h' },
  { name: 'n → l between vowels', pattern: /(?<=[aeiou])n(?=[aeiou])/g, standard: 'l' },
  { name: 'nn → nr', pattern: /nn(?=[aeiou])/g, standard: 'nr' },
];

export interface StandardSpelling {
  form: string;
  /** The rules that produced it. */
  rules: string[];
}

/** Every spelling the rules derive from a folded Onitsha form (not the form itself). */
export function deriveStandardSpellings(folded: string): StandardSpelling[] {
  const places: { at: number; length: number; standard: string; rule: string }[] = [];
  for (const rule of RULES) {
    for (const m of folded.matchAll(rule.pattern)) places.push({ at: m.index ?? 0, length: m[0].length, standard: rule.standard, rule: rule.name });
  }
  places.sort((a, b) => a.at - b.at);
  // Overlapping places (the n of nn) cannot both change: the later one is dropped.
  const usable = places.filter((p, i) => i === 0 || p.at >= places[i - 1].at + places[i - 1].length).slice(0, MAX_CHANGE_PLACES);
  const out = new Map<string, Set<string>>();
  for (let mask = 1; mask < 1 << usable.length; mask++) {
    let form = '';
    let from = 0;
    const rules = new Set<string>();
    usable.forEach((p, i) => {
      if (!(mask & (1 << i))) return;
      form += folded.slice(from, p.at) + p.standard;
      from = p.at + p.length;
      rules.add(p.rule);
    });
    form += folded.slice(from);
    if (form !== folded && !out.has(form)) out.set(form, rules);
  }
  return [...out].map(([form, rules]) => ({ form, rules: [...rules] }));
}

/** Words of Standard Igbo text, folded, with how often each occurs. */
export function standardWordCounts(texts: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of texts) {
    for (const word of text.match(/[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)*/gu) ?? []) {
      const key = fold(word);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return counts;
}

/**
 * Adds to each Igbo entry, as `standard-spelling` variants, the derived spellings of its folded headword that
 * occur in the Standard text (NTREX-128 Igbo) or the Standard frequency list (Unilex ig), and are not already an
 * Igbo entry's own folded form. Returns how many variants were added.
 */
export function addStandardIgboSpellings(
  db: Database.Database,
  text: ReadonlyMap<string, number>,
  listed: ReadonlySet<string>,
  attestation: { text: string; list: string },
): number {
  const entries = db.prepare("SELECT key, folded FROM stage.entry WHERE language = ?").all(STANDARD_IGBO_LANGUAGE) as { key: string; folded: string }[];
  const headwords = new Set(entries.map((e) => e.folded));
  const insert = db.prepare("INSERT INTO stage.variant (target_key, form, kind, note) VALUES (?, ?, 'standard-spelling', ?)");
  let added = 0;
  db.transaction(() => {
    for (const entry of entries) {
      for (const { form, rules } of deriveStandardSpellings(entry.folded)) {
        if (headwords.has(form)) continue;
        const times = text.get(form) ?? 0;
        const inList = listed.has(form);
        if (times === 0 && !inList) continue;
        const where = [times > 0 ? `${attestation.text} (${times} ${times === 1 ? 'time' : 'times'})` : '', inList ? attestation.list : ''].filter(Boolean).join(' and ');
        insert.run(entry.key, form, `Standard Igbo spelling derived from the Onitsha form by ${rules.join(', ')} (docs/standard-igbo.md); attested in ${where}.`);
        added += 1;
      }
    }
  })();
  return added;
}
