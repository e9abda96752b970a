// Normalisation and search folding (snapshot/format/text.ts), the policy of docs/normalisation.md.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import Database from 'better-sqlite3';

import { SNAPSHOT_TABLES } from '../../../snapshot/format/schema.ts';
import { declaredTokenizer } from '../../../snapshot/format/fts-terms.ts';
import { fold, glossTokens, hasDiacritics, normalise, searchTokens, senseKeyParts, senseKeys, slugBase } from '../../../snapshot/format/text.ts';

describe('normalise', () => {
  it('normalise - composes to NFC and orders combining marks canonically', () => {
    // e + grave + dot below (non-canonical order) and e + dot below + grave are the same letter.
    assert.equal(normalise('e\u0300\u0323'), normalise('e\u0323\u0300'));
    assert.equal(normalise('e\u0323\u0300'), '\u1eb9\u0300');
    assert.equal(normalise('o\u0323'), 'ọ');
  });
  it('normalise - maps U+0340/U+0341 to U+0300/U+0301 and U+0329 to the underdot', () => {
    assert.equal(normalise('a\u0340'), 'à');
    assert.equal(normalise('a\u0341'), 'á');
    assert.equal(normalise('e\u0329'), 'ẹ');
  });
  it('normalise - trims and collapses whitespace, drops invisibles, keeps tones and case', () => {
    assert.equal(normalise('  ebe \u00a0 à\t'), 'ebe à');
    assert.equal(normalise('a\u200bb'), 'ab');
    assert.equal(normalise('Ọlọ́run'), 'Ọlọ́run'.normalize('NFC'));
  });
});

describe('fold', () => {
  it('fold - removes tones, underdots, macrons and dots above', () => {
    const table: [string, string][] = [
      ['ẹ', 'e'], ['ọ', 'o'], ['ṣ', 's'], ['ị', 'i'], ['ụ', 'u'], ['ṅ', 'n'], ['ā', 'a'],
      ['ọ̀run', 'orun'], ['egō', 'ego'], ['mmilī', 'mmili'], ['Ọlọ́run', 'olorun'], ['àjàò pụpa', 'ajao pupa'],
    ];
    for (const [input, expected] of table) assert.equal(fold(input), expected, input);
  });
  it('fold - maps syllabic nasals and ŋ to n/m', () => {
    assert.equal(fold('ń'), 'n');
    assert.equal(fold('ǹ'), 'n');
    assert.equal(fold('ḿ'), 'm');
    assert.equal(fold('m\u0300'), 'm');
    assert.equal(fold('aŋùlị'), 'anuli');
  });
  it('fold - lower-cases and ignores the leading hyphen of Igbo verb roots', () => {
    assert.equal(fold('-tu afà'), 'tu afa');
    assert.equal(fold('-lī'), 'li');
    assert.equal(fold('A-'), 'a-');
  });
  it('fold - unifies apostrophes', () => {
    assert.equal(fold('n’ebe'), fold("n'ebe"));
  });
  it('fold - makes ego find egō (Igbo Onitsha spelling)', () => {
    assert.equal(fold('ego'), fold('egō'));
  });
});

describe('searchTokens', () => {
  it('searchTokens - keeps only words, so query syntax never survives', () => {
    assert.deepEqual(searchTokens('"a" * OR (b) NEAR/2 c\u0000d'), ['a', 'OR', 'b', 'NEAR', '2', 'c', 'd']);
    assert.deepEqual(searchTokens('\u0301'), []);
    assert.deepEqual(searchTokens('ọ̀run'), ['ọ̀run']);
  });
});

describe('glossTokens', () => {
  it('glossTokens - keeps a tone-marked word whole, as the gloss index does ("ọ̀yọ́" is the term "oyo" there)', () => {
    assert.deepEqual(glossTokens('ọ̀yọ́'), ['ọ̀yọ́']);
    assert.deepEqual(glossTokens('bàbá-alágbẹ̀dẹ "x" * (ọ̀run)'), ['bàbá', 'alágbẹ̀dẹ', 'x', 'ọ̀run']);
    // A mark cannot start a word, and a mark that is not one of SQLite's diacritics ends one.
    assert.deepEqual(glossTokens('\u0301ab a\u0305b'), ['ab', 'a', 'b']);
  });

  it('glossTokens - splits every BMP code point as the gloss index\'s tokenizer does, or finer, never coarser', () => {
    // Each word must be one term to SQLite: more would make its quoted form a phrase, which the index
    // (detail=column) refuses. Letters, digits and the combining diacritics block must split exactly alike.
    const db = new Database(':memory:');
    try {
      db.exec(SNAPSHOT_TABLES);
      // The gloss index itself is contentless with detail=column, which fts5vocab 'instance' cannot read: a
      // table of its own with the same tokenizer.
      const tokenize = declaredTokenizer(db, 'gloss_fts');
      assert.ok(tokenize, 'gloss_fts tokenizer declared in the schema');
      db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize = ${tokenize}); CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');`);
      const insert = db.prepare('INSERT INTO t (rowid, x) VALUES (?, ?)');
      const texts: string[] = [];
      const inside: string[] = []; // the code point each text was made around
      const words: string[] = [];
      for (let code = 1; code < 0x10000; code++) {
        if (code >= 0xd800 && code <= 0xdfff) continue;
        const c = String.fromCharCode(code);
        // NFC, as the build stores every gloss (U+0340 is U+0300 there, U+0958 two code points).
        for (const text of [`a${c}b`.normalize('NFC'), `${c}b`.normalize('NFC')]) {
          texts.push(text);
          inside.push(c);
          words.push(...glossTokens(text));
        }
      }
      // Rows 1..n: the texts; rows n+1..: each word alone.
      db.transaction(() => {
        texts.forEach((text, i) => insert.run(i + 1, text));
        words.forEach((word, i) => insert.run(texts.length + i + 1, word));
      })();
      const terms = new Map<number, number>();
      for (const doc of db.prepare('SELECT doc FROM v').pluck().iterate() as IterableIterator<number>) terms.set(doc, (terms.get(doc) ?? 0) + 1);
      const coarser = words.filter((word, i) => terms.get(texts.length + i + 1) !== 1);
      assert.deepEqual(coarser.slice(0, 10).map((w) => [...w].map((c) => c.codePointAt(0)?.toString(16))), [], 'words SQLite splits further');
      const differ: string[] = [];
      texts.forEach((text, i) => {
        if (!/[\p{L}\p{N}\u0300-\u036f]/u.test(inside[i])) return;
        if ((terms.get(i + 1) ?? 0) !== glossTokens(text).length) differ.push(JSON.stringify(text));
      });
      assert.deepEqual(differ.slice(0, 10), [], 'letters, digits and combining diacritics split otherwise than SQLite');
    } finally {
      db.close();
    }
  });
});

describe('slugBase', () => {
  it('slugBase - is ASCII, URL-safe and readable', () => {
    assert.equal(slugBase('ọ̀run'), 'orun');
    assert.equal(slugBase('ebe à'), 'ebe-a');
    assert.equal(slugBase('-tu afà'), 'tu-afa');
    assert.match(slugBase('ف'), /^u[0-9a-f-]+$/);
  });
  it('hasDiacritics - tells marked forms from plain ones', () => {
    assert.equal(hasDiacritics('omi'), false);
    assert.equal(hasDiacritics('ọ̀run'), true);
  });
});

describe('senseKeys', () => {
  it('senseKeys - splits on semicolons and commas, drops parentheticals, a leading "to" or article, and end punctuation', () => {
    assert.deepEqual(senseKeys('water; rain'), ['water', 'rain']);
    assert.deepEqual(senseKeys('to eat (food)'), ['eat']);
    assert.deepEqual(senseKeys('(transitive) to go, to walk, to move'), ['go', 'walk', 'move']);
    assert.deepEqual(senseKeys('a day, daytime'), ['day', 'daytime']);
    assert.deepEqual(senseKeys('A hand.'), ['hand']);
    assert.deepEqual(senseKeys('A small, bowl-shaped drum, played with fingers.'), [], 'a sentence-style definition: its commas list no senses');
    assert.deepEqual(senseKeys('x'.repeat(60)), []);
  });
  it('senseKeys - keeps a parenthesis whole, and leaves out a part that a species name narrows', () => {
    assert.deepEqual(senseKeys('become soft (in hot ashes, water, etc.)'), ['become soft']);
    assert.deepEqual(senseKeys('tree (Alstonia congensis Engl.); bark used medicinally'), ['bark used medicinally']);
    assert.deepEqual(senseKeys('fish (Alestes nurse)'), []);
    assert.deepEqual(senseKeys('head (part of the body)'), ['head']);
  });
  it('senseKeyParts - a sense is plain unless a label or "to" comes before it; "to be" and glued parentheses read as meant', () => {
    assert.deepEqual(senseKeyParts('(Bushi) water; water'), [{ key: 'water', plain: true }]);
    assert.deepEqual(senseKeyParts('(transitive) to house, to accommodate'), [
      { key: 'house', plain: false },
      { key: 'accommodate', plain: false },
    ]);
    assert.deepEqual(senseKeys('to be tall'), ['tall']);
    assert.deepEqual(senseKeys('(to)day.'), ['today']);
  });
});
