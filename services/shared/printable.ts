// Text from clients made safe to show an operator: control characters become visible escapes in the ops CLI's
// tables and in log lines. Registration is unauthenticated, so a name may carry an escape sequence that
// recolours a terminal, sets its title, moves the cursor or forges a table row (CWE-150, CWE-117).

/**
 * C0 controls (newline and tab included: a value must stay on its line and in its column), DEL, C1 controls
 * (0x9b is CSI to a terminal that reads 8-bit controls), the bidirectional marks, embeddings, overrides and
 * isolates that reorder what follows them, and the line and paragraph separators.
 */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The characters of CONTROLS that JSON.stringify leaves as they are (it escapes C0 itself). */
const JSON_UNESCAPED_CONTROLS = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const hex = (c: string, width: number): string => c.charCodeAt(0).toString(16).padStart(width, '0');

/** `text` with each control character written as `\xNN` (up to U+00FF) or `\uNNNN`, visible and inert. */
export function printable(text: string): string {
  return text.replace(CONTROLS, (c) => (c.charCodeAt(0) <= 0xff ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`));
}

/**
 * JSON.stringify, with the control characters it leaves raw escaped as `\uNNNN`: the line still parses to the
 * same value, and a terminal showing the log (pm2 logs, tail) sees no control character.
 */
export function jsonLine(value: unknown): string {
  return inertJsonLine(JSON.stringify(value));
}

/**
 * A line already serialised as JSON (pino's), with the control characters JSON.stringify leaves raw escaped:
 * they occur only inside its strings, where `\uNNNN` parses to the same character.
 */
export function inertJsonLine(line: string): string {
  return line.replace(JSON_UNESCAPED_CONTROLS, (c) => `\\u${hex(c, 4)}`);
}

/** A template tag that passes every interpolated value through printable(), the literal text as written. */
export function shown(strings: TemplateStringsArray, ...values: unknown[]): string {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += printable(String(values[i])) + strings[i + 1];
  return out;
}
