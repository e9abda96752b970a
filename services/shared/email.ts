// How an email address is read, by the API's registration schema and by the metering service alike: one shape,
// one spelling (trimmed, Unicode NFC, lower-cased) so that two spellings of one address make one developer, and no
// control or invisible characters (a zero-width space or an escape would make a second account that looks like
// the first in every listing).

/** Permissive address shape: something@something.tld, no spaces. */
export const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Control characters (Cc), format characters (Cf: zero-width spaces and joiners, bidi marks, BOM), line and paragraph separators. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** Matches an address free of INVISIBLE characters (for a schema's regex). */
export const VISIBLE_ONLY = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]*$/u;

export const INVISIBLE_MESSAGE = 'must not contain control or invisible characters';

/** The one stored spelling of an address: trimmed, NFC, lower-cased. */
export function canonicalEmail(email: string): string {
  return email.trim().normalize('NFC').toLowerCase();
}

/** Why `email` (canonical) cannot be an address, or undefined when it can. */
export function emailProblem(email: string): string | undefined {
  if (INVISIBLE.test(email)) return INVISIBLE_MESSAGE;
  if (!EMAIL_SHAPE.test(email)) return 'must be an email address';
  return undefined;
}
