// Resolves a `language` parameter (active code or URL slug) or refuses it with unsupported_language.
import { ApiError } from '../../shared/errors.ts';

import type { Snapshot } from '../../../snapshot/reader/snapshot.ts';

export type LanguageResolver = (value: string) => string;

/** Built once per snapshot: the message lists the active codes (spec, Errors). */
export function languageResolver(snapshot: Snapshot): LanguageResolver {
  const active = snapshot
    .languages()
    .filter((l) => l.status === 'active')
    .map((l) => l.code);
  const message = `Unsupported language. Use an active language code or slug; available codes: ${active.join(', ')}.`;
  return (value) => {
    const language = snapshot.findActiveLanguage(value);
    if (!language) throw new ApiError('unsupported_language', message);
    return language.code;
  };
}
