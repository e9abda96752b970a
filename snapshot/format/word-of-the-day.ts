// The word of the day as the snapshot stores it: which cycle position a date takes, and the body served for it.
// The build materialises bodies for a window of days; the reader computes any other date the same way.

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a YYYY-MM-DD date (UTC). */
export function dayNumber(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

export function dateOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The cycle position of a date: day number modulo the cycle length. */
export function cyclePosition(date: string, cycleLength: number): number {
  const day = dayNumber(date);
  return ((day % cycleLength) + cycleLength) % cycleLength;
}

/** The WordOfTheDay body of a date: the entry's stored JSON spliced in as it is, never parsed. */
export function wordOfTheDayBody(date: string, language: string, entryJson: string): string {
  return `{"date":${JSON.stringify(date)},"language":${JSON.stringify(language)},"entry":${entryJson}}`;
}
