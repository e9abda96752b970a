// Maps a line of a bundle in dist/ back to its TypeScript source through the bundle's source map, so that
// profiles name services/api/... files rather than dist/api.mjs lines.
import fs from 'node:fs';
import path from 'node:path';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

interface RawMap {
  sources: string[];
  mappings: string;
}

/** Per generated line (0-based): the first mapped segment's source index and source line (0-based). */
type LineTable = ([number, number] | undefined)[];

function decodeVlq(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const ch of segment) {
    const digit = BASE64.indexOf(ch);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

function lineTable(map: RawMap): LineTable {
  const table: LineTable = [];
  let source = 0;
  let line = 0;
  for (const generatedLine of map.mappings.split(';')) {
    let first: [number, number] | undefined;
    for (const segment of generatedLine.split(',')) {
      if (!segment) continue;
      const v = decodeVlq(segment);
      if (v.length >= 4) {
        source += v[1];
        line += v[2];
        first ??= [source, line];
      }
    }
    table.push(first);
  }
  return table;
}

const cache = new Map<string, { table: LineTable; sources: string[] } | null>();

/** "dist/api.mjs:3039" → "services/api/snapshot/reader.ts:88", or the input when no map applies. */
export function originalLocation(root: string, location: string): string {
  const m = /^(dist\/[^:]+\.mjs):(\d+)$/.exec(location);
  if (!m) return location;
  const bundle = path.join(root, m[1]);
  if (!cache.has(bundle)) {
    try {
      const map = JSON.parse(fs.readFileSync(`${bundle}.map`, 'utf8')) as RawMap;
      cache.set(bundle, { table: lineTable(map), sources: map.sources.map((s) => path.relative(root, path.resolve(path.dirname(bundle), s))) });
    } catch {
      cache.set(bundle, null);
    }
  }
  const entry = cache.get(bundle);
  const hit = entry?.table[Number(m[2]) - 1];
  return entry && hit ? `${entry.sources[hit[0]]}:${hit[1] + 1}` : location;
}
