// Per-key serialisation of async work: grants and releases of one slot run one after another, even when a
// grant waits for a reclaim round trip, so that no two grants see the same free units.

export function createSerializer() {
  const tails = new Map<string, Promise<unknown>>();
  return function serialize<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = tails.get(key) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}
