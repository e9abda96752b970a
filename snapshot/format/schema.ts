// The snapshot's tables (read by snapshot/reader/reader.ts) and the build's staging tables.

/** Tables created before the bulk inserts; indexes that the inserts would slow down come later. */
export const SNAPSHOT_TABLES = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
-- Bloom filters of the forms keys and the full-text terms (snapshot/format/stored-filters.ts), built
-- once here instead of by every worker at start; bits NULL: too wide to keep, the lookups always run
CREATE TABLE key_filters (name TEXT PRIMARY KEY, format TEXT NOT NULL, bits BLOB);
-- global_rank: the entry's place in the global ranking order (rowid, so FTS rowids and result order share it)
CREATE TABLE entries (
  global_rank INTEGER PRIMARY KEY,
  id INTEGER NOT NULL,
  slug TEXT NOT NULL,
  language TEXT NOT NULL,
  pos TEXT NOT NULL,
  folded TEXT NOT NULL
);
-- the served JSON, apart from the narrow entries table so its indexes build from a small table; the summaries
-- apart from the bodies, so that a worker reads them at open without reading every body (format 6)
CREATE TABLE entry_json (global_rank INTEGER PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE entry_summary (global_rank INTEGER PRIMARY KEY, summary TEXT NOT NULL);
-- exact (0), folded (1) and variant/loose (2) keys; rows come back in global_rank order inside one key
CREATE TABLE forms (
  key TEXT NOT NULL,
  kind INTEGER NOT NULL,
  global_rank INTEGER NOT NULL,
  language TEXT NOT NULL,
  pos TEXT NOT NULL,
  PRIMARY KEY (key, kind, global_rank)
) WITHOUT ROWID;
-- contentless FTS (content=''): search needs only rowids (= global_rank), so no copy of the text is stored
-- prefix search over folded headwords (plus the Igbo l/r key) and folded variants
CREATE VIRTUAL TABLE head_fts USING fts5(
  head, vars, tags,
  tokenize = "unicode61 remove_diacritics 0 categories 'L* N* Co M*'",
  prefix = '1 2 3',
  detail = column,
  content = '',
  columnsize = 0
);
-- English glosses (definitions)
CREATE VIRTUAL TABLE gloss_fts USING fts5(
  glosses, tags,
  tokenize = "unicode61 remove_diacritics 2",
  detail = column,
  content = '',
  columnsize = 0
);
-- other forms of entries (listed forms: plurals, possessed and inflected forms, romanisations; Zulu's
-- inflected forms), folded: front-coded blocks of keys in byte order, each key with its entries' global ranks
-- (snapshot/format/form-blocks.ts); first is the block's first key, so a key's block is the last
-- one whose first key is <= it
CREATE TABLE other_forms (first TEXT PRIMARY KEY, block BLOB NOT NULL) WITHOUT ROWID;
-- language and part of speech of every entry, one byte per global_rank (1 + index into labels; 0 = no entry): each
-- worker reads both whole at start and filters full-text matches with them, without a query per row
CREATE TABLE facets (name TEXT PRIMARY KEY, labels TEXT NOT NULL, codes BLOB NOT NULL);
CREATE TABLE counts (language TEXT NOT NULL, pos TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (language, pos)) WITHOUT ROWID;
-- every BROWSE_ANCHOR_EVERY-th entry (position > 0) of each browse order (folded, id), per filter ('*' = all),
-- so that a deep browse page seeks to its anchor instead of stepping through every row before it
CREATE TABLE browse_anchors (
  language TEXT NOT NULL, pos TEXT NOT NULL, position INTEGER NOT NULL, folded TEXT NOT NULL, id INTEGER NOT NULL,
  PRIMARY KEY (language, pos, position)
) WITHOUT ROWID;
CREATE TABLE bodies (name TEXT PRIMARY KEY, body TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE languages (code TEXT PRIMARY KEY, slug TEXT NOT NULL, status TEXT NOT NULL, record TEXT NOT NULL) WITHOUT ROWID;
-- word of the day: materialised bodies for a window of days, plus the cycle that defines every day
CREATE TABLE wotd (language TEXT NOT NULL, date TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (language, date)) WITHOUT ROWID;
CREATE TABLE wotd_cycle (language TEXT NOT NULL, position INTEGER NOT NULL, global_rank INTEGER NOT NULL, PRIMARY KEY (language, position)) WITHOUT ROWID;
`;

export const SNAPSHOT_INDEXES = `
CREATE UNIQUE INDEX entries_id ON entries (id);
CREATE UNIQUE INDEX entries_slug ON entries (slug);
CREATE INDEX entries_browse ON entries (folded, id);
CREATE INDEX entries_browse_language ON entries (language, folded, id);
CREATE INDEX entries_browse_pos ON entries (pos, folded, id);
CREATE INDEX entries_browse_language_pos ON entries (language, pos, folded, id);
`;

export const STAGE_TABLES = `
-- glossed: the record has an English gloss (a language is active by its glossed entries); counted: the row
-- stands for its raw record in the report (0: a further entry read from the same record)
CREATE TABLE stage.lex (seq INTEGER PRIMARY KEY, key TEXT NOT NULL, source_id TEXT NOT NULL, language TEXT NOT NULL, exact_form TEXT NOT NULL, pos TEXT NOT NULL, etym INTEGER, glossed INTEGER NOT NULL, counted INTEGER NOT NULL, tone_marked INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE stage.alt (seq INTEGER PRIMARY KEY, data TEXT NOT NULL);
CREATE TABLE stage.variant (target_key TEXT NOT NULL, form TEXT NOT NULL, kind TEXT NOT NULL, note TEXT);
-- inflected forms (StarDict synonyms) by the headword of the article they lead to
CREATE TABLE stage.inflection (seq INTEGER PRIMARY KEY, source_id TEXT NOT NULL, language TEXT NOT NULL, form TEXT NOT NULL, headword TEXT NOT NULL);
-- pronunciation rows by folded word; entry_pron: the ones each entry shows, in the order chosen (rank 0 first)
CREATE TABLE stage.pron (seq INTEGER PRIMARY KEY, source_id TEXT NOT NULL, language TEXT NOT NULL, key TEXT NOT NULL, ipa TEXT NOT NULL);
CREATE TABLE stage.entry_pron (entry_key TEXT NOT NULL, rank INTEGER NOT NULL, ipa TEXT NOT NULL, source_id TEXT NOT NULL);
CREATE TABLE stage.reverse (seq INTEGER PRIMARY KEY, data TEXT NOT NULL);
-- folded inflected forms and the entry (key) each leads to
CREATE TABLE stage.entry_inflection (key TEXT NOT NULL, entry_key TEXT NOT NULL);
-- other forms' keys (listed forms and inflections) with the entry's global_rank, gathered for the other_forms blocks
CREATE TEMP TABLE other_form_rows (key TEXT NOT NULL, global_rank INTEGER NOT NULL);
-- forms rows collected unsorted (in the connection's temp database: worker threads read the stage
-- file meanwhile), then inserted into forms in key order (a sorted bulk insert)
CREATE TEMP TABLE form_rows (key TEXT NOT NULL, kind INTEGER NOT NULL, global_rank INTEGER NOT NULL, language TEXT NOT NULL, pos TEXT NOT NULL);
CREATE TABLE stage.entry (
  n INTEGER PRIMARY KEY, key TEXT NOT NULL, id INTEGER NOT NULL, slug TEXT NOT NULL, language TEXT NOT NULL,
  exact_form TEXT NOT NULL, exact_lower TEXT NOT NULL, folded TEXT NOT NULL, pos TEXT NOT NULL, tone_marked INTEGER NOT NULL, global_rank INTEGER
);
`;

export const STAGE_LEX_INDEXES = `
-- covering: identify reads the heads of all records in key order without touching the JSON data
CREATE INDEX stage.lex_key ON lex (key, seq, source_id, language, exact_form, pos, etym, counted, tone_marked);
CREATE INDEX stage.lex_form ON lex (language, exact_form);
CREATE INDEX stage.pron_key ON pron (language, key);
`;

export const STAGE_ENTRY_INDEXES = `
CREATE UNIQUE INDEX stage.entry_key ON entry (key);
CREATE INDEX stage.entry_exact ON entry (language, exact_form);
CREATE INDEX stage.entry_lower ON entry (language, exact_lower);
CREATE INDEX stage.entry_folded ON entry (language, folded);
CREATE INDEX stage.variant_target ON variant (target_key);
CREATE INDEX stage.entry_global_rank ON entry (global_rank, key, id, slug);
CREATE INDEX stage.entry_pron_key ON entry_pron (entry_key, rank);
`;

/** forms filled from the staged rows in key order, so its B-tree is written sequentially. */
export const FILL_FORMS = `
INSERT OR IGNORE INTO forms (key, kind, global_rank, language, pos)
SELECT key, kind, global_rank, language, pos FROM temp.form_rows ORDER BY key, kind, global_rank;
DROP TABLE temp.form_rows;
`;
