// The two ways a source file fails the build: it cannot be read, or it is not in its manifest's format.

/** A source file that is missing, unreadable or not a regular file. */
export class SourceError extends Error {
  override readonly name = 'SourceError';
}

/** A source file that is not in the format its importer reads; the message names the file and the place. */
export class FormatError extends Error {
  override readonly name = 'FormatError';
}
