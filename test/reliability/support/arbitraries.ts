// fast-check generators of hostile request parts: search syntax, lone combining marks, NUL, RTL text,
// invalid percent-encoding, 10,000-character values, odd numbers, ids, slugs and query-string shapes.
import fc from 'fast-check';

import { PARTS_OF_SPEECH } from '../../../services/shared/vocabulary.ts';

/**
 * Tokens the leak check looks for must not come from the input, or an echoed parameter would look like a
 * leak: generated text never contains them.
 */
const LEAK_TOKENS = /sqlite|fts|syntax error|\/work|node_modules|\.ts:/gi;
const clean = (s: string): string => s.replace(LEAK_TOKENS, 'x');

/** Search-engine syntax that must be data, never query syntax. */
const SEARCH_SYNTAX = [
  '"', '""', '"unterminated', '*', 'a*', '*a', 'NEAR(', 'NEAR(a b, 2)', 'NEAR', 'AND', 'OR', 'NOT', 'a AND b',
  'a OR', 'OR b', '-', '-a', '^', '^a', '(', ')', '()', '(a', 'a)', ':', 'col:term', 'headword:a', '{a b}:c',
  "'", "';--", "' OR 1=1 --", '"); DROP TABLE entries; --', '%', '_', '\\', '\\"', '+', '~', '?', '[', ']',
  '||', '&&', '!', '@', '#', '$', '*/', '/*', ';', ',', '.',
];

/** Characters and strings that break naive text handling. */
const HOSTILE_TEXT = [
  '\u0301', '\u0300', '\u0323', '\u0304\u0301\u0300', '\u0323\u0323\u0323', // combining marks alone
  '\u0000', 'a\u0000b', '\u0001\u001f\u007f', '\t', '\r\n', ' ', '   ',
  'مرحبا', 'שלום', '\u202Eabc\u202C', '\u200F', '\u200E', '\u200B', '\uFEFF', // RTL, bidi, zero-width
  '😀', '👩🏽‍💻', '\u{10FFFF}', '\uFFFD', '\uFFFF',
  'ụlọ', 'ọ̀rọ̀', 'ẹ', 'ńlá', 'àbúrò', 'Ị́', 'ọ́', 'ṣ', 'n̄', 'ǹ', 'm̀',
  // Marks of other scripts between letters: a search tokenizer and SQLite's unicode61 may split these differently.
  'a\u05B7b', 'אַב', 'مَرْحَبًا', 'a\u064Eb', 'क्षत्रिय', 'a\u093Fb', 'กั', 'a\u0E31b', 'a\u20DDb', 'ǹ\u0327ọ',
  '0', '-0', 'null', 'undefined', 'NaN', 'true', '[]', '{}', '__proto__', 'constructor', 'toString',
  '../', '..\\', '%2e%2e', '<script>alert(1)</script>', '${7*7}', '{{7*7}}', 'A'.repeat(201),
];

const hostileAtom: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SEARCH_SYNTAX) },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('\u0300', '\u0301', '\u0323', '\u0304'), maxLength: 6 }) },
  {
    weight: 1,
    arbitrary: fc.string({ unit: fc.constantFrom('a', 'ọ', 'א', 'ب', 'क', 'ก', '\u05B7', '\u064E', '\u093F', '\u0E31', '\u0301', '\u20DD'), minLength: 2, maxLength: 8 }),
  },
);

/** A hostile text value (decoded form). */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.array(hostileAtom, { minLength: 1, maxLength: 4 }).map((a) => clean(a.join(' '))) },
  { weight: 1, arbitrary: fc.constantFrom('a', 'ọ', '"', '*', '\u0301', 'مرحبا').map((c) => c.repeat(10_000)) },
  { weight: 1, arbitrary: fc.integer({ min: 195, max: 205 }).map((n) => 'o'.repeat(n)) },
);

/** Percent-sequences that are not valid UTF-8 or not valid percent-encoding at all. */
export const INVALID_PERCENT = [
  '%E0%A4%A', '%zz', '%', '%%', '%2', '%G0', '%C0%AF', '%FF', '%FE%FF', '%ED%A0%80', '%F4%90%80%80', '%00',
  '%E2%82', '%80', '%C3', '%u0041', '%25%', '%%32%35',
];

/** Encodes a decoded value for a URL: properly, as raw UTF-8 bytes, or with junk percent-sequences mixed in. */
function encodeVariants(value: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant(percentEncode(value)) },
    { weight: 1, arbitrary: fc.constant(rawEncode(value)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...INVALID_PERCENT), fc.nat({ max: 3 }))
        .map(([junk, at]) => {
          const enc = percentEncode(value);
          const cut = Math.min(enc.length, at * 3);
          return enc.slice(0, cut) + junk + enc.slice(cut);
        }),
    },
  );
}

/** encodeURIComponent that survives lone surrogates (sent as the bytes of U+FFFD would be wrong: keep them raw). */
export function percentEncode(value: string): string {
  let out = '';
  for (const ch of value) {
    try {
      out += encodeURIComponent(ch);
    } catch {
      out += '%ED%A0%80';
    }
  }
  return out;
}

/** Raw UTF-8 in the URL, escaping only what cannot go on the request line. */
function rawEncode(value: string): string {
  return [...value].map((ch) => (/[\u0000-\u0020\u007f#&?%+\uD800-\uDFFF]/.test(ch) ? percentEncode(ch) : ch)).join('');
}

/** Values for integer parameters: valid, out of range, huge, negative, floats, junk. */
export const numberish: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 1, max: 100 }).map(String),
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
  fc.constantFrom('0', '-1', '10000', '10001', '100', '101', '1.5', '1e3', '0x10', '+1', '01', ' 1', '1 ', '',
    'NaN', 'Infinity', '-0', '9007199254740993', '99999999999999999999999999999', '1,2', '١٢', '２'),
  fc.double().map(String),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  hostileText,
);

const LANGUAGE_VALUES = ['ig', 'yo', 'igbo', 'yoruba', 'IG', 'Yo', 'Igbo', 'xx', 'en', 'ha', 'sw', 'ig,yo', 'ig ', '', '*'];

export const languageValue: fc.Arbitrary<string> = fc.oneof(fc.constantFrom(...LANGUAGE_VALUES), hostileText);
export const partOfSpeechValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...PARTS_OF_SPEECH, 'Noun', 'VERB', 'nouns', 'n', ''),
  hostileText,
);
export const dateValue: fc.Arbitrary<string> = fc.oneof(
  fc.date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((d) =>
    d.toISOString().slice(0, 10),
  ),
  fc.constantFrom('2024-02-30', '2023-02-29', '9999-12-31', '0000-00-00', '2025-1-1', '2025-13-01', '20250101',
    '2025-01-01T00:00:00Z', 'today', '', '-1', '2025-01-01 '),
  hostileText,
);

/** A query string (without '?') from named value arbitraries plus unknown, duplicated and valueless keys. */
export function queryString(params: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string> {
  const known = Object.entries(params).map(([name, value]) =>
    value.chain(encodeVariants).map((v) => `${name}=${v}`),
  );
  const odd = fc.oneof(
    fc.constantFrom('q', 'q=', 'page', '=', '&', '&&', 'page[$gt]=1', 'q[]=a', '__proto__=1', 'constructor=x',
      'diagnostics=1', 'limit=1&limit=100', 'q=a&q=b', ';', 'unknown=1', '%zz=1', 'Q=a', 'PAGE=2'),
    hostileText.chain(encodeVariants).map((v) => `x=${v}`),
  );
  return fc
    .array(fc.oneof({ weight: 4, arbitrary: fc.oneof(...known) }, { weight: 1, arbitrary: odd }), { maxLength: 5 })
    .map((parts) => parts.join('&'));
}

/** Path segments for /api/v1/words/{id}: ids, slugs, traversal, encodings. */
export function idSegment(realIds: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...realIds).chain(encodeVariants) },
    { weight: 2, arbitrary: numberish.chain(encodeVariants) },
    {
      weight: 2,
      arbitrary: fc.constantFrom('..', '.', '%2e%2e', '..%2F..%2Fetc%2Fpasswd', '%2F', '%2f', 'a%2Fb', '%5C', '~',
        'ụlọ', 'u%CC%A3lo%CC%A3', '%00', 'a%00b', '%zz', '%E0%A4%A', 'null', 'undefined', '-', '_', '1;drop',
        '1%20OR%201=1', '1\'', '%22', 'ig', 'word-of-the-day', 'openapi.json'),
    },
    { weight: 2, arbitrary: hostileText.chain(encodeVariants) },
  );
}
