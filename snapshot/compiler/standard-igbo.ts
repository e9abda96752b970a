// Standard Igbo spellings of the Onitsha (Williamson) forms: derived by rule, kept where Standard text attests them.
import type Database from 'better-sqlite3';

import { fold } from '../../services/shared/text.ts';

/** The Igbo lexicon is Williamson's Onitsha dictionary (docs/standard-igbo.md). */
export const STANDARD_IGBO_LANGUAGE = 'ig';
/** Letters that may change at one place in a form: more places would multiply the candidates past use. */
const MAX_CHANGE_PLACES = 8;

/**
 * Regular correspondences between Onitsha and Standard Igbo spelling, on folded forms (docs/standard-igbo.md):
 * Onitsha l where Standard has r (mmilī ~ mmiri, ọlụ ~ ọrụ), f where Standard has h (ife ~ ihe, fa ~ ha,
 * afịa ~ ahịa), n between vowels where Standard has l (enū ~ elu, àná ~ ala), and nn where Standard has nr
 * (nni ~ nri). Each is written both ways: `onitsha` finds the places in an Onitsha form, `standard` those in a
 * Standard one (the build starts from the attested Standard words, far fewer than the entries).
 */
const RULES: readonly { name: string; onitsha: RegExp; standard: RegExp; from: string; to: string }[] = [
  { name: 'l → r', onitsha: /l/g, standard: /r/g, from: 'l', to: 'r' },
  { name: 'f → h', onitsha: /f/g, standard: /h/g, from: 'f', to: 'h' },
  { name: 'n → l between vowels', onitsha: /(?<=[aeiou])n(?=[aeiou])/g, standard: /(?<=[aeiou])l(?=[aeiou])/g, from: 'n', to: 'l' },
  { name: 'nn → nr', onitsha: /nn(?=[aeiou])/g, standard: /nr(?=[aeiou])/g, from: 'nn', to: 'nr' },
];

export interface StandardSpelling {
  form: string;
  /** The rules that relate it to the form it was made from. */
  rules: string[];
}

/** Every spelling made by changing any non-empty subset of the places the rules find (in one direction). */
function respell(folded: string, direction: 'toStandard' | 'toOnitsha'): StandardSpelling[] {
  const places: { at: number; length: number; replacement: string; rule: string }[] = [];
  for (const rule of RULES) {
    const pattern = direction === 'toStandard' ? rule.onitsha : rule.standard;
    const replacement = direction === 'toStandard' ? rule.to : rule.from;
    for (const m of folded.matchAll(pattern)) places.push({ at: m.index ?? 0, length: m[0].length, replacement, rule: rule.name });
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
      form += folded.slice(from, p.at) + p.replacement;
      from = p.at + p.length;
      rules.add(p.rule);
    });
    form += folded.slice(from);
    if (form !== folded && !out.has(form)) out.set(form, rules);
  }
  return [...out].map(([form, rules]) => ({ form, rules: [...rules] }));
}

/** Every spelling the rules derive from a folded Onitsha form (not the form itself). */
export function deriveStandardSpellings(folded: string): StandardSpelling[] {
  return respell(folded, 'toStandard');
}

/** Every Onitsha form from which the rules derive a folded Standard word: the same relation, read backwards. */
export function onitshaSources(standard: string): StandardSpelling[] {
  return respell(standard, 'toOnitsha');
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
 * Adds to Igbo entries, as `standard-spelling` variants, the derived spellings of their folded headwords that
 * occur in the Standard text (NTREX-128 Igbo) or the Standard frequency list (Unilex ig), and are not already an
 * Igbo entry's own folded form. Starts from the attested words (thousands) and reads the rules backwards, so
 * the work does not grow with the number of entries. Returns how many variants were added.
 */
export function addStandardIgboSpellings(
  db: Database.Database,
  text: ReadonlyMap<string, number>,
  listed: ReadonlySet<string>,
  attestation: { text: string; list: string },
): number {
  const entriesOf = db.prepare<[string, string], { key: string }>('SELECT key FROM stage.entry WHERE language = ? AND folded = ?');
  const insert = db.prepare("INSERT INTO stage.variant (target_key, form, kind, note) VALUES (?, ?, 'standard-spelling', ?)");
  const words = [...new Set([...text.keys(), ...listed])].sort();
  let added = 0;
  db.transaction(() => {
    for (const word of words) {
      if (word === '' || entriesOf.all(STANDARD_IGBO_LANGUAGE, word).length > 0) continue;
      const times = text.get(word) ?? 0;
      const where = [times > 0 ? `${attestation.text} (${times} ${times === 1 ? 'time' : 'times'})` : '', listed.has(word) ? attestation.list : ''].filter(Boolean).join(' and ');
      for (const { form, rules } of onitshaSources(word)) {
        for (const entry of entriesOf.all(STANDARD_IGBO_LANGUAGE, form)) {
          insert.run(entry.key, word, `Standard Igbo spelling derived from the Onitsha form by ${rules.join(', ')} (docs/standard-igbo.md); attested in ${where}.`);
          added += 1;
        }
      }
    }
  })();
  return added;
}
