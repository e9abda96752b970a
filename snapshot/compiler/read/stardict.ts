// Reads a StarDict 3.0.0 dictionary packed in a .tar.gz: its articles (.idx + .dict.dz) and synonyms (.syn).
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

import { FormatError } from './errors.ts';

const TAR_BLOCK = 512;

/**
 * The regular files of a ustar archive, by name. The archives here are a few MB, so the whole archive is
 * decompressed in memory; a tar header is a 512-byte block (name at 0, octal size at 124, type at 156).
 */
export function untar(archive: Buffer, file = 'archive'): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (let at = 0; at + TAR_BLOCK <= archive.length; ) {
    const header = archive.subarray(at, at + TAR_BLOCK);
    if (header.every((b) => b === 0)) break;
    const field = (from: number, length: number): string => header.toString('latin1', from, from + length).replace(/\0.*$/s, '');
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    if (!Number.isFinite(size)) throw new FormatError(`${file}: not a tar archive (bad size field at byte ${at})`);
    const prefix = field(345, 155);
    const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    const type = field(156, 1);
    if (type === '0' || type === '') files.set(name, archive.subarray(at + TAR_BLOCK, at + TAR_BLOCK + size));
    at += TAR_BLOCK + Math.ceil(size / TAR_BLOCK) * TAR_BLOCK;
  }
  return files;
}

export interface StarDict {
  /** Articles in .idx order: the headword and its article text. */
  articles: { headword: string; article: string }[];
  /** Synonyms (.syn): a form and the index of the article it leads to. */
  synonyms: { form: string; article: number }[];
}

/**
 * Reads the one dictionary in `file` (a .tar.gz): .idx, .dict.dz (gzip; dictzip is gzip) and, unless
 * `synonyms` is false, .syn (the Zulu archive's 421,630 links: read only by the importer that wants them).
 */
export function readStarDict(file: string, { synonyms: withSynonyms = true }: { synonyms?: boolean } = {}): StarDict {
  let files: Map<string, Buffer>;
  try {
    files = untar(gunzipSync(readFileSync(file)), file);
  } catch (cause) {
    if (cause instanceof FormatError) throw cause;
    throw new FormatError(`${file}: not a gzip-compressed StarDict archive (${(cause as Error).message})`);
  }
  const find = (suffix: string): Buffer | undefined => [...files].find(([name]) => name.endsWith(suffix))?.[1];
  const idx = find('.idx');
  const dict = find('.dict.dz') ?? find('.dict');
  if (!idx || !dict) throw new FormatError(`${file}: not a StarDict archive (no .idx or .dict.dz inside)`);
  const text = find('.dict.dz') ? gunzipSync(dict) : dict;
  const articles: StarDict['articles'] = [];
  // .idx: headword (UTF-8) NUL, then the article's offset and size in .dict, big-endian 32-bit each.
  for (let at = 0; at < idx.length; ) {
    const nul = idx.indexOf(0, at);
    if (nul < 0 || nul + 9 > idx.length) throw new FormatError(`${file}: truncated .idx at byte ${at}`);
    const offset = idx.readUInt32BE(nul + 1);
    const size = idx.readUInt32BE(nul + 5);
    articles.push({ headword: idx.toString('utf8', at, nul), article: text.toString('utf8', offset, offset + size) });
    at = nul + 9;
  }
  const synonyms: StarDict['synonyms'] = [];
  const syn = withSynonyms ? find('.syn') : undefined;
  // .syn: form (UTF-8) NUL, then the index of its .idx entry, big-endian 32-bit.
  for (let at = 0; syn && at < syn.length; ) {
    const nul = syn.indexOf(0, at);
    if (nul < 0 || nul + 5 > syn.length) throw new FormatError(`${file}: truncated .syn at byte ${at}`);
    synonyms.push({ form: syn.toString('utf8', at, nul), article: syn.readUInt32BE(nul + 1) });
    at = nul + 5;
  }
  return { articles, synonyms };
}
