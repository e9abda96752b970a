// The check a snapshot passes before any host switches to it: its file checks as a worker's does (check.ts), and
// it answers like a live snapshot (each active language browses, finds its first word, fetches its entry; its
// downloads are listed). Returns a one-line summary; throws with the reason otherwise.
import { checkSnapshotFile } from './check.ts';
import { openSnapshot } from './reader.ts';

export function sampleQueries(file: string): string {
  const verified = checkSnapshotFile(file);
  if (!verified.ok) throw new Error(`${file}: ${verified.reason}`);
  const snapshot = openSnapshot(file);
  try {
    const languages = snapshot.languages();
    const active = languages.filter((l) => l.status === 'active');
    if (active.length === 0) throw new Error('no active language');
    for (const language of active) {
      if (language.wordCount === 0) throw new Error(`language ${language.code} has no words`);
      const page = snapshot.search({ language: language.code, page: 1, limit: 5 });
      if (page.items.length === 0) throw new Error(`browsing ${language.code} returned nothing`);
      const first = page.items[0];
      const found = snapshot.search({ q: first.exactForm, language: language.code, page: 1, limit: 5 });
      if (!found.items.some((w) => w.id === first.id)) throw new Error(`searching "${first.exactForm}" misses it`);
      if (!snapshot.entryJson(String(first.id)) || !snapshot.entryJson(first.slug)) {
        throw new Error(`entry ${first.id} cannot be fetched`);
      }
    }
    JSON.parse(snapshot.statsJson());
    // Its downloads are opened as a worker opens them: an index of this version, every file of the listed size.
    const downloads = snapshot.downloads?.();
    if (!downloads?.index) throw new Error(`no downloads: ${downloads?.problem ?? 'not read'}`);
    for (const language of active) {
      if (!downloads.index.files.some((f) => f.language === language.code)) throw new Error(`no download for ${language.code}`);
    }
    const total = active.reduce((n, l) => n + l.wordCount, 0);
    return `${snapshot.meta.version}: ${active.map((l) => `${l.code} ${l.wordCount}`).join(', ')} (${total} entries, ${downloads.index.files.length} downloads)`;
  } finally {
    snapshot.close();
  }
}
