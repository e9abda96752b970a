// Repairs of the Igbo API definitions (Williamson's text as the 2020 parser left it): parentheses cut by a record
// boundary or left open, cross-reference remnants, and '#' where the parser lost a space.

/** `(see separate entry`, `(compare …` left open at the end: a cross-reference the parser cut, not a meaning. */
const OPEN_REFERENCE = /\s*\((?:see|compare|cf\.?)\b[^()]*$/i;

function depth(text: string): number {
  let d = 0;
  for (const c of text) {
    if (c === '(') d += 1;
    else if (c === ')') d -= 1;
  }
  return d;
}

/** The index just past the first `)` that closes nothing in the text, or -1. */
function strayClose(text: string): number {
  let d = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') d += 1;
    else if (text[i] === ')') {
      if (d === 0) return i + 1;
      d -= 1;
    }
  }
  return -1;
}

/**
 * A definition that ends with a parenthesis left open, when the next record of the file opens with the rest of it
 * up to a `)` that closes nothing ("a form of greeting (to more than one person in the same" + "place); I greet you
 * all"): the rest, and the remainder the next record keeps. Null when they do not fit together.
 */
export function joinAcrossRecords(last: string, next: string): { joined: string; remainder: string } | null {
  if (depth(last) <= 0) return null;
  const at = strayClose(next);
  if (at < 0) return null;
  return { joined: `${last} ${next.slice(0, at)}`.trim(), remainder: next.slice(at).replace(/^[\s;,.]+/, '').trim() };
}

/**
 * A definition's parentheses made whole: an open cross-reference remnant at the end removed ("man (see separate
 * entry" → "man"), any other parenthesis left open closed at the end, a `)` that closes nothing removed.
 */
export function balanceParentheses(text: string): { text: string; repaired: boolean } {
  let out = text;
  if (depth(out) > 0 && OPEN_REFERENCE.test(out)) out = out.replace(OPEN_REFERENCE, '').trim();
  for (let at = strayClose(out); at >= 0; at = strayClose(out)) out = `${out.slice(0, at - 1)}${out.slice(at)}`.replace(/\s{2,}/g, ' ').trim();
  const open = depth(out);
  if (open > 0) out = `${out}${')'.repeat(open)}`;
  return { text: out, repaired: out !== text };
}

/** The parser wrote '#' where a space was (m#nni, ikwu#ife, okwu#kà). */
export function restoreLostSpaces(text: string): string {
  return text.replace(/#+/g, ' ').replace(/\s{2,}/g, ' ').trim();
}
