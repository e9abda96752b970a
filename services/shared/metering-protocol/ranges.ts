// Sets of quota unit numbers as sorted, disjoint, inclusive [from, to] ranges: what is granted, held,
// returned and free. Pure functions shared by the worker and the service.

export type Range = readonly [from: number, to: number];

export function countUnits(ranges: readonly Range[]): number {
  let n = 0;
  for (const [from, to] of ranges) n += to - from + 1;
  return n;
}

/** Sorts and merges overlapping or adjacent ranges. */
export function normalise(ranges: readonly Range[]): Range[] {
  const sorted = ranges.filter(([f, t]) => t >= f).sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = out[out.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}

export function union(a: readonly Range[], b: readonly Range[]): Range[] {
  return normalise([...a, ...b]);
}

/** a ∩ b, for two normalised lists. */
export function intersect(a: readonly Range[], b: readonly Range[]): Range[] {
  const out: Range[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const from = Math.max(a[i][0], b[j][0]);
    const to = Math.min(a[i][1], b[j][1]);
    if (from <= to) out.push([from, to]);
    if (a[i][1] < b[j][1]) i++;
    else j++;
  }
  return out;
}

/** a \ b, for two normalised lists. */
export function subtract(a: readonly Range[], b: readonly Range[]): Range[] {
  const out: Range[] = [];
  let j = 0;
  for (const [from, to] of a) {
    let start = from;
    while (j < b.length && b[j][1] < start) j++;
    let k = j;
    while (k < b.length && b[k][0] <= to) {
      if (b[k][0] > start) out.push([start, b[k][0] - 1]);
      start = Math.max(start, b[k][1] + 1);
      k++;
    }
    if (start <= to) out.push([start, to]);
  }
  return out;
}

/** Splits off the lowest `n` units: [taken, rest]. */
export function takeLowest(ranges: readonly Range[], n: number): [Range[], Range[]] {
  const taken: Range[] = [];
  const rest: Range[] = [];
  let want = n;
  for (const [from, to] of ranges) {
    if (want <= 0) {
      rest.push([from, to]);
      continue;
    }
    const size = to - from + 1;
    if (size <= want) {
      taken.push([from, to]);
      want -= size;
    } else {
      taken.push([from, from + want - 1]);
      rest.push([from + want, to]);
      want = 0;
    }
  }
  return [taken, rest];
}

/** Only the units ≤ max (after a plan downgrade, numbers above the new limit are never handed out). */
export function clampTo(ranges: readonly Range[], max: number): Range[] {
  return intersect(ranges, max >= 1 ? [[1, max]] : []);
}
