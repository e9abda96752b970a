// Malagasy: active verbs carry the prefixes mi-, man-, mam-, many- (manasa "wash", mihinana "eat"); the Wiktionary
// export labels hundreds of them `noun`, each with one bare English gloss.
import type { LanguageRules } from './rules.ts';

/** Active-voice verb prefixes: mi-, man- (and its forms mam-, many- before labials and palatals). */
const ACTIVE_VERB = /^(?:mi|man|mam|many)/;

export const malagasy: LanguageRules = {
  /**
   * A `noun` with an active-verb prefix whose first gloss is one English word that the other lexicons do not use
   * only for nouns is a verb; mananasy "pineapple" and miaramila "soldier" stay nouns.
   */
  retag(record, english) {
    // Lower case, marks aside (Malagasy writes few: mamèlapèlana); not text.ts's fold, which reads this module's rules.
    if (record.partOfSpeech !== 'noun' || !ACTIVE_VERB.test(record.exactForm.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase())) return undefined;
    const gloss = record.senses[0]?.trim().toLowerCase().replace(/^to\s+/, '') ?? '';
    return /^[a-z]+$/.test(gloss) && !english.nounOnly(gloss) ? 'verb' : undefined;
  },
};
