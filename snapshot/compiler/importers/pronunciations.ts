// Importers for pronunciation lists, one per format: WikiPron (`word<TAB>segments`), MFA dictionaries
// (`word<TAB>phones`) and ipa-dict (`word<TAB>/IPA/`). Each line → one pronunciation row, or a rejection.
import { normalise } from '../../../services/shared/text.ts';
import type { PronunciationRecord, SourceContext } from '../records.ts';

export type PronunciationOutcome =
  | { kind: 'pronunciation'; record: PronunciationRecord; notes: string[] }
  | { kind: 'rejected'; reason: string }
  | { kind: 'skip' };

/** MFA's aligner tokens (`<unk>`, `[laughter]`, `<eps>`): rows of the aligner, not words. */
const ALIGNER_TOKEN = /^[<[].*[>\]]$/;

function split(line: string): [string, string] | null {
  const text = line.replace(/\r$/, '');
  const tab = text.indexOf('\t');
  if (tab < 0) return null;
  return [normalise(text.slice(0, tab)), normalise(text.slice(tab + 1))];
}

function row(source: SourceContext, word: string, ipa: string, notes: string[] = []): PronunciationOutcome {
  if (word === '' || ipa === '') return { kind: 'rejected', reason: 'malformed line (empty word or transcription)' };
  return { kind: 'pronunciation', record: { sourceId: source.id, language: source.language, word, ipa }, notes };
}

/** WikiPron: IPA segments separated by spaces, joined here into one transcription (`k à ɽ éː` → `kàɽéː`). */
export function importWikipronLine(line: string, source: SourceContext): PronunciationOutcome {
  if (line.trim() === '') return { kind: 'skip' };
  const cols = split(line);
  if (!cols) return { kind: 'rejected', reason: 'malformed line (not word<TAB>IPA)' };
  return row(source, cols[0], cols[1].replace(/ /g, ''));
}

/** MFA: phones separated by spaces (Hausa vowels with tone letters ˥ ˩ ˥˦), joined into one transcription. */
export function importMfaLine(line: string, source: SourceContext): PronunciationOutcome {
  if (line.trim() === '') return { kind: 'skip' };
  const cols = split(line);
  if (!cols) return { kind: 'rejected', reason: 'malformed line (not word<TAB>phones)' };
  if (ALIGNER_TOKEN.test(cols[0])) return { kind: 'rejected', reason: 'aligner token, not a word' };
  return row(source, cols[0], cols[1].replace(/ /g, ''));
}

/** ipa-dict: `/IPA/`; the capital letter that capitalised words keep inside the IPA (`/Aɓaɗoni/`) is lowered. */
export function importIpaDictLine(line: string, source: SourceContext): PronunciationOutcome {
  if (line.trim() === '') return { kind: 'skip' };
  const cols = split(line);
  if (!cols) return { kind: 'rejected', reason: 'malformed line (not word<TAB>/IPA/)' };
  const ipa = cols[1].replace(/^\/|\/$/g, '');
  const notes: string[] = [];
  if (/[A-Z]/.test(ipa)) notes.push('ASCII capital inside the IPA lower-cased');
  return row(source, cols[0], ipa.toLowerCase(), notes);
}
