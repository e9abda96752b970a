// Stable identity of entries: integer ids and readable slugs derived only from the entry's own key.
import { createHash } from 'node:crypto';

import { hasDiacritics, slugBase } from '../format/text.ts';

/** Ids are 48-bit, so they stay exact in JSON numbers and JavaScript. */
const ID_BYTES = 6;

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** The id for an entry key; `attempt` > 0 only when an earlier key (in key order) already took the id. */
export function entryId(key: string, attempt = 0): number {
  const bytes = digest(attempt === 0 ? key : `${key}\u0002${attempt}`);
  const id = bytes.readUIntBE(0, ID_BYTES);
  return id === 0 ? 1 : id;
}

/** Short base-36 fingerprint of the exact form, telling apart forms that fold alike (ọ̀run, ọrùn). */
export function formFingerprint(exactForm: string, length: number): string {
  const n = digest(exactForm).readUIntBE(0, 6).toString(36).padStart(10, '0');
  return length <= 10 ? n.slice(0, length) : `${n}${digest(`${exactForm}\u0003`).toString('hex')}`.slice(0, length);
}

export interface SlugParts {
  exactForm: string;
  language: string;
  partOfSpeech: string;
  etymologyNumber: number | null;
}

/**
 * `<folded form>-<language>-<part of speech>[-<etymology>][-<fingerprint>]`, e.g. `omi-yo-noun`,
 * `orun-yo-noun-k3f9`. Everything comes from the entry itself, so adding or removing other entries never
 * changes it. The fingerprint appears when the form is not plain ASCII-lower (tones, underdots, case,
 * spaces), because then different exact forms share the folded part. `fingerprintLength` grows only
 * if two keys would still collide (resolved in key order, deterministic).
 */
export function entrySlug(parts: SlugParts, forcedFingerprintLength = 0): string {
  const base = slugBase(parts.exactForm);
  const pieces = [base, parts.language, parts.partOfSpeech];
  if (parts.etymologyNumber !== null) pieces.push(String(parts.etymologyNumber));
  const plain = base === parts.exactForm && !hasDiacritics(parts.exactForm);
  if (forcedFingerprintLength > 0) pieces.push(formFingerprint(parts.exactForm, forcedFingerprintLength));
  else if (!plain) pieces.push(formFingerprint(parts.exactForm, DEFAULT_FINGERPRINT_CHARS));
  return pieces.join('-');
}

const DEFAULT_FINGERPRINT_CHARS = 4;
const MAX_FINGERPRINT_CHARS = 64;

/** Assigns ids and slugs in key order, resolving the (astronomically rare) collisions deterministically. */
export class IdentityAllocator {
  private readonly ids = new Set<number>();
  private readonly slugs = new Set<string>();
  collisions = 0;

  allocate(key: string, parts: SlugParts): { id: number; slug: string } {
    let attempt = 0;
    let id = entryId(key);
    while (this.ids.has(id)) {
      this.collisions += 1;
      id = entryId(key, ++attempt);
    }
    this.ids.add(id);
    let length = 0;
    let slug = entrySlug(parts);
    while (this.slugs.has(slug)) {
      this.collisions += 1;
      length += DEFAULT_FINGERPRINT_CHARS * 2;
      slug = length > MAX_FINGERPRINT_CHARS ? `${entrySlug(parts)}-${id.toString(36)}-${length}` : entrySlug(parts, length);
    }
    this.slugs.add(slug);
    return { id, slug };
  }
}
