// The snapshot's tables and indexes: written by the build (snapshot/compiler/), read by snapshot/reader/.

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
  -- the browse order's key (snapshot/format/text.ts browseKey): the folded headword from its first letter on
  browse_key TEXT NOT NULL
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
-- every BROWSE_ANCHOR_EVERY-th entry (position > 0) of each browse order (browse_key, id), per filter ('*' = all),
-- so that a deep browse page seeks to its anchor instead of stepping through every row before it
CREATE TABLE browse_anchors (
  language TEXT NOT NULL, pos TEXT NOT NULL, position INTEGER NOT NULL, browse_key TEXT NOT NULL, id INTEGER NOT NULL,
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
CREATE INDEX entries_browse ON entries (browse_key, id);
CREATE INDEX entries_browse_language ON entries (language, browse_key, id);
CREATE INDEX entries_browse_pos ON entries (pos, browse_key, id);
CREATE INDEX entries_browse_language_pos ON entries (language, pos, browse_key, id);
`;
