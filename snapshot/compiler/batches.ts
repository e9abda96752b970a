// Keyset paging over big ordered staging queries: each page is fetched with .all(), so the same
// connection can write between pages (better-sqlite3 forbids writes while a statement iterates).

/** Rows per page: large enough to amortise the query, small enough to keep memory flat. */
export const PAGE_ROWS = 5000;

export function* pages<R>(fetch: (after: R | null, limit: number) => R[]): Generator<R> {
  let last: R | null = null;
  for (;;) {
    const rows = fetch(last, PAGE_ROWS);
    yield* rows;
    if (rows.length < PAGE_ROWS) return;
    last = rows[rows.length - 1];
  }
}
