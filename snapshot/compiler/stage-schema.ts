// The build's staging tables: records as the importers stage them, and the entries while they are identified, in a
// database of their own attached as `stage` (deleted at the end); with the rows gathered in the connection's temp
// database for the snapshot's forms and other_forms tables. Not part of the snapshot's format.

export const STAGE_TABLES = `
-- glossed: the record has an English gloss (a language is active by its glossed entries); counted: the row
-- stands for its raw record in the report (0: a further entry read from the same record)
CREATE TABLE stage.lex (seq INTEGER PRIMARY KEY, key TEXT NOT NULL, source_id TEXT NOT NULL, language TEXT NOT NULL, exact_form TEXT NOT NULL, pos TEXT NOT NULL, etym INTEGER, glossed INTEGER NOT NULL, counted INTEGER NOT NULL, tone_marked INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE stage.alt (seq INTEGER PRIMARY KEY, data TEXT NOT NULL);
CREATE TABLE stage.variant (target_key TEXT NOT NULL, form TEXT NOT NULL, kind TEXT NOT NULL, note TEXT);
-- inflected forms (StarDict synonyms, UniMorph tables) by the headword of the entry they lead to (or the other
-- headword to try); features and
-- pos where the source gives them (a form with features is listed in its entry's inflection table)
CREATE TABLE stage.inflection (seq INTEGER PRIMARY KEY, source_id TEXT NOT NULL, language TEXT NOT NULL, form TEXT NOT NULL, headword TEXT NOT NULL, other_headword TEXT, features TEXT, pos TEXT);
-- pronunciation rows by folded word (with the word as the source writes it); entry_pron: the ones each entry shows, in the order chosen (rank 0 first)
CREATE TABLE stage.pron (seq INTEGER PRIMARY KEY, source_id TEXT NOT NULL, language TEXT NOT NULL, key TEXT NOT NULL, word TEXT NOT NULL, ipa TEXT NOT NULL);
CREATE TABLE stage.entry_pron (entry_key TEXT NOT NULL, rank INTEGER NOT NULL, ipa TEXT NOT NULL, source_id TEXT NOT NULL);
CREATE TABLE stage.reverse (seq INTEGER PRIMARY KEY, data TEXT NOT NULL);
-- folded inflected forms and the entry (key) each leads to
CREATE TABLE stage.entry_inflection (key TEXT NOT NULL, entry_key TEXT NOT NULL);
-- the labelled forms each entry lists, by source, in the table's order (seq)
CREATE TABLE stage.entry_table_form (entry_key TEXT NOT NULL, seq INTEGER NOT NULL, source_id TEXT NOT NULL, form TEXT NOT NULL, features TEXT NOT NULL);
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
CREATE INDEX stage.entry_table_form_key ON entry_table_form (entry_key, source_id, seq);
`;

/** forms filled from the staged rows in key order, so its B-tree is written sequentially. */
export const FILL_FORMS = `
INSERT OR IGNORE INTO forms (key, kind, global_rank, language, pos)
SELECT key, kind, global_rank, language, pos FROM temp.form_rows ORDER BY key, kind, global_rank;
DROP TABLE temp.form_rows;
`;
