// Search over a snapshot: exact > folded > variant > prefix > gloss, each in global rank order, bounded.
import type Database from 'better-sqlite3';

import type { WordSummary } from '../../shared/schemas.ts';
import { fold, glossKey, glossTokens, looseKey, normalise, searchTokens } from '../../shared/text.ts';
import type { MatchType } from '../../shared/vocabulary.ts';
import { FORM_KIND, MATCH_WEIGHT, MAX_RANKED_ROWS } from './format.ts';
import { matchExpression } from './fts-query.ts';
import type { MatchFilters } from './fts-query.ts';
import { LruCache } from './lru.ts';
import type { SearchPage, SearchQuery } from './snapshot.ts';

/** Ranked result lists kept per (text, language, part of speech): every page of a query reuses one. */
const RANKED_CACHE_ENTRIES = 2000;
/** Gloss prefixes shorter than this match whole words only ("a" would match half the dictionary). */
const MIN_GLOSS_PREFIX_CHARS = 3;
/** The language whose entries carry the l/r loose key (see services/shared/text.ts looseKey). */
const LOOSE_LANGUAGE = 'ig';

interface Ranked {
  pops: number[];
  types: MatchType[];
  /** Monotone with the order: MATCH_WEIGHT band of the type, minus the position inside the type. */
  scores: number[];
  truncated: boolean;
}

type RankedType = Exclude<MatchType, 'browse'>;
type Stmt = Database.Statement<unknown[], { pop: number }>;

export class SnapshotSearch {
  private readonly formStatements = new Map<string, Stmt>();
  private readonly browseStatements = new Map<string, Stmt>();
  private readonly headFts: Stmt;
  private readonly glossFts: Stmt;
  private readonly summary: Database.Statement<[number], { summary: string }>;
  private readonly count: Database.Statement<[string, string], { n: number }>;
  private readonly ranked = new LruCache<string, Ranked>(RANKED_CACHE_ENTRIES);

  constructor(private readonly db: Database.Database) {
    this.headFts = db.prepare('SELECT rowid AS pop FROM head_fts WHERE head_fts MATCH ? ORDER BY rowid LIMIT ?');
    this.glossFts = db.prepare('SELECT rowid AS pop FROM gloss_fts WHERE gloss_fts MATCH ? ORDER BY rowid LIMIT ?');
    this.summary = db.prepare('SELECT summary FROM entry_json WHERE pop = ?');
    this.count = db.prepare('SELECT n FROM counts WHERE language = ? AND pos = ?');
    for (const lang of [false, true]) {
      for (const pos of [false, true]) {
        const where = `${lang ? ' AND language = ?' : ''}${pos ? ' AND pos = ?' : ''}`;
        this.formStatements.set(`${lang}${pos}`, db.prepare(`SELECT pop FROM forms WHERE key = ? AND kind = ?${where} ORDER BY pop LIMIT ?`));
        const browseWhere = [lang ? 'language = ?' : '', pos ? 'pos = ?' : ''].filter(Boolean).join(' AND ');
        this.browseStatements.set(
          `${lang}${pos}`,
          db.prepare(`SELECT pop FROM entries ${browseWhere ? `WHERE ${browseWhere}` : ''} ORDER BY folded, id LIMIT ? OFFSET ?`),
        );
      }
    }
  }

  search(query: SearchQuery): SearchPage {
    const text = query.q === undefined ? '' : normalise(query.q.replace(/\0/g, ' '));
    if (text === '') return this.browse(query);
    const filters: MatchFilters = { language: query.language, partOfSpeech: query.partOfSpeech };
    const cacheKey = `${text}\u0000${query.language ?? ''}\u0000${query.partOfSpeech ?? ''}`;
    let ranked = this.ranked.get(cacheKey);
    if (!ranked) {
      ranked = this.rank(text, filters);
      this.ranked.set(cacheKey, ranked);
    }
    const start = (query.page - 1) * query.limit;
    const items: WordSummary[] = [];
    for (let i = start; i < Math.min(ranked.pops.length, start + query.limit); i++) {
      items.push(this.item(ranked.pops[i], ranked.types[i], ranked.scores[i]));
    }
    return { total: ranked.pops.length, items, truncated: ranked.truncated };
  }

  private item(pop: number, matchType: MatchType, score: number): WordSummary {
    const row = this.summary.get(pop);
    if (!row) throw new Error(`snapshot is inconsistent: no entry at rank ${pop}`);
    return { ...(JSON.parse(row.summary) as Omit<WordSummary, 'matchType' | 'score'>), matchType, score };
  }

  private forms(key: string, kind: number, filters: MatchFilters): number[] {
    const stmt = this.formStatements.get(`${Boolean(filters.language)}${Boolean(filters.partOfSpeech)}`) as Stmt;
    const params: unknown[] = [key, kind];
    if (filters.language) params.push(filters.language);
    if (filters.partOfSpeech) params.push(filters.partOfSpeech);
    params.push(MAX_RANKED_ROWS + 1);
    return stmt.all(...params).map((r) => r.pop);
  }

  private fts(stmt: Stmt, expression: string | null): number[] {
    if (expression === null) return [];
    return stmt.all(expression, MAX_RANKED_ROWS + 1).map((r) => r.pop);
  }

  /** Collects at most MAX_RANKED_ROWS + 1 distinct entries, best match type first, rank order inside. */
  private rank(text: string, filters: MatchFilters): Ranked {
    const exact = text.toLowerCase();
    const folded = fold(text);
    const loose = looseKey(folded);
    const pops: number[] = [];
    const types: MatchType[] = [];
    const scores: number[] = [];
    const seen = new Set<number>();
    const add = (type: RankedType, found: number[]): boolean => {
      let position = 0;
      for (const pop of found) {
        if (seen.has(pop)) continue;
        seen.add(pop);
        pops.push(pop);
        types.push(type);
        scores.push(MATCH_WEIGHT[type] + 1 - ++position / (MAX_RANKED_ROWS + 2));
        if (pops.length > MAX_RANKED_ROWS) return false;
      }
      return true;
    };
    const byPop = (lists: number[][]): number[] => [...new Set(lists.flat())].sort((a, b) => a - b);
    const steps: [RankedType, () => number[]][] = [
      ['exact', () => this.forms(exact, FORM_KIND.exact, filters)],
      ['folded', () => (folded === '' ? [] : this.forms(folded, FORM_KIND.folded, filters))],
      [
        'variant',
        () => {
          if (folded === '') return [];
          const lists = [this.forms(folded, FORM_KIND.variant, filters)];
          if (loose !== folded) {
            lists.push(this.forms(loose, FORM_KIND.variant, filters));
            // An Igbo headword spelt with l, reached by the standard r spelling (mmilī from "mmiri").
            if (!filters.language || filters.language === LOOSE_LANGUAGE) {
              lists.push(this.forms(loose, FORM_KIND.folded, { ...filters, language: LOOSE_LANGUAGE }));
            }
          }
          return byPop(lists);
        },
      ],
      [
        'prefix',
        () => {
          const tokens = searchTokens(folded);
          const alternatives = loose !== folded ? [tokens, searchTokens(loose)] : [tokens];
          return this.fts(this.headFts, matchExpression(['head', 'vars'], alternatives, filters, true));
        },
      ],
      [
        'gloss',
        () => {
          // Whole-gloss matches ("water" → omi), then whole words, then a prefix of the last word.
          const key = glossKey(text);
          const tokens = glossTokens(exact);
          const last = tokens[tokens.length - 1] ?? '';
          const lists = [
            key === '' ? [] : this.forms(key, FORM_KIND.gloss, filters),
            this.fts(this.glossFts, matchExpression(['glosses'], [tokens], filters, false)),
          ];
          if ([...last].length >= MIN_GLOSS_PREFIX_CHARS) {
            lists.push(this.fts(this.glossFts, matchExpression(['glosses'], [tokens], filters, true)));
          }
          return [...new Set(lists.flat())];
        },
      ],
    ];
    for (const [type, run] of steps) if (!add(type, run())) break;
    const truncated = pops.length > MAX_RANKED_ROWS;
    if (truncated) {
      pops.length = MAX_RANKED_ROWS;
      types.length = MAX_RANKED_ROWS;
      scores.length = MAX_RANKED_ROWS;
    }
    return { pops, types, scores, truncated };
  }

  /** Without q: the language (or all) alphabetically by folded form; nothing is ranked. */
  private browse(query: SearchQuery): SearchPage {
    const total = this.count.get(query.language ?? '*', query.partOfSpeech ?? '*')?.n ?? 0;
    const stmt = this.browseStatements.get(`${Boolean(query.language)}${Boolean(query.partOfSpeech)}`) as Stmt;
    const params: unknown[] = [];
    if (query.language) params.push(query.language);
    if (query.partOfSpeech) params.push(query.partOfSpeech);
    params.push(query.limit, (query.page - 1) * query.limit);
    const items = stmt.all(...params).map((r) => this.item(r.pop, 'browse', 0));
    return { total, items, truncated: false };
  }
}
