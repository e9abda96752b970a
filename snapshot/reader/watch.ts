// Notices a change to the snapshot file a worker has mapped. Snapshots are never written after the build renames
// them into place, so any change is someone writing over the live file: a `cp` over current.sqlite truncates and
// rewrites the very file the workers map, and reading a page past its new end is SIGBUS, which no handler can
// catch. The worker gets out first where it can, and its restart checks the file (open-checked.ts).
import fs from 'node:fs';

/** Calls `onChange` (once) when the file's length or modification time changes; returns a function that stops. */
export function watchSnapshotFile(file: string, onChange: (change: string) => void): () => void {
  // Our own descriptor: fstat keeps reading the mapped file even once its name points elsewhere.
  const fd = fs.openSync(file, 'r');
  const opened = fs.fstatSync(fd);
  let told = false;
  const watcher = fs.watch(file, { persistent: false }, () => {
    if (told) return;
    const now = fs.fstatSync(fd);
    if (now.size === opened.size && now.mtimeMs === opened.mtimeMs) return;
    told = true;
    onChange(`${opened.size} → ${now.size} bytes, modified at ${new Date(now.mtimeMs).toISOString()}`);
  });
  // The name may go (a publish prunes old snapshots): the mapped file is then only ours, and nothing writes it.
  watcher.on('error', () => watcher.close());
  return () => {
    watcher.close();
    fs.closeSync(fd);
  };
}
