// A seeded order for reading samples: the same seed and items give the same sample on any machine.
import { createHash } from 'node:crypto';

/**
 * Items ordered by sha256(seed, key): stable under the items' input order and independent of the platform's
 * random numbers, so a sample written into the docs can be drawn again from the same snapshot.
 */
export function seededOrder<T>(items: readonly T[], key: (item: T) => string, seed: number): T[] {
  const rank = new Map<T, string>();
  for (const item of items) rank.set(item, createHash('sha256').update(`${seed}\u0000${key(item)}`).digest('hex'));
  return [...items].sort((a, b) => ((rank.get(a) ?? '') < (rank.get(b) ?? '') ? -1 : 1));
}
