// The global rank of every entry (the column global_rank): its place in one order of all entries, the tie-break
// inside every match type of a search.

export interface RankInputs {
  isCommon: Uint8Array;
  /** 0 = no frequency rank. */
  frequencyRank: Uint32Array;
  /** Length of the exact form in code points. */
  length: Uint32Array;
  id: Float64Array;
}

/**
 * Orders entries: common first, then by frequency rank (unranked last), then shorter forms, then id.
 * Returns globalRanks[i] = the 1-based position of entry i. Search reads rows in global rank order, so a match type's best
 * rows come first and every page is a stable slice of one total order.
 */
export function rankEntries(inputs: RankInputs): Uint32Array {
  const n = inputs.id.length;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const { isCommon, frequencyRank, length, id } = inputs;
  const sortable = Array.from(order);
  sortable.sort((a, b) => {
    if (isCommon[a] !== isCommon[b]) return isCommon[b] - isCommon[a];
    const ra = frequencyRank[a] === 0 ? Number.MAX_SAFE_INTEGER : frequencyRank[a];
    const rb = frequencyRank[b] === 0 ? Number.MAX_SAFE_INTEGER : frequencyRank[b];
    if (ra !== rb) return ra - rb;
    if (length[a] !== length[b]) return length[a] - length[b];
    return id[a] - id[b];
  });
  const globalRanks = new Uint32Array(n);
  for (let p = 0; p < n; p++) globalRanks[sortable[p]] = p + 1;
  return globalRanks;
}
