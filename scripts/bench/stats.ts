// Small statistics helpers shared by the bench's measurements.

/** Nearest-rank percentile of already sorted values. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** CPU µs per request from CPU seconds over a number of requests; NaN without requests. */
export function microsPerRequest(cpuSeconds: number, requests: number): number {
  return requests > 0 ? (1e6 * cpuSeconds) / requests : Number.NaN;
}

export function sortedFloat64(values: readonly number[]): Float64Array {
  return Float64Array.from(values).sort();
}
