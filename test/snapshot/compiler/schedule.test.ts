// Word-of-the-day schedule: 366+ days without repeats, deterministic, preferring common glossed words.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { classroomUnfitReason } from '../../../snapshot/compiler/classroom.ts';
import { WOTD_CYCLE_DAYS, wordOfTheDayCycle } from '../../../snapshot/compiler/schedule.ts';
import { FactsTable } from '../../../snapshot/compiler/write/facts.ts';
import type { EntryFacts } from '../../../snapshot/compiler/write/facts.ts';
import { cyclePosition, dateOfDay, dayNumber } from '../../../snapshot/format/word-of-the-day.ts';
import { openSnapshot } from '../../../snapshot/reader/reader.ts';
import { WordOfTheDaySchema } from '../../../services/shared/schemas.ts';
import { testSnapshotPath } from '../../support/snapshot.ts';

function facts(n: number, language: string, offset = 0): EntryFacts[] {
  return Array.from({ length: n }, (_, i) => ({
    globalRank: offset + i + 1,
    id: 1000 + offset + i,
    language,
    partOfSpeech: 'noun',
    isCommon: i % 3 === 0,
    frequencyRank: i % 3 === 0 ? i + 1 : null,
    glossCount: i % 7 === 0 ? 0 : 1,
    exampleCount: i % 5 === 0 ? 1 : 0,
    pronunciationCount: 0,
    // Every eleventh entry is unfit for a classroom (classroom.ts).
    classroomFit: i % 11 !== 5,
  }));
}

describe('wordOfTheDayCycle', () => {
  const all = [...facts(3000, 'ig'), ...facts(3000, 'yo', 3000)];
  const table = FactsTable.from(all);
  it('wordOfTheDayCycle - covers at least 366 days with no repeats', () => {
    for (const langs of [['ig'], ['yo'], ['ig', 'yo']]) {
      const cycle = wordOfTheDayCycle(table, langs);
      assert.equal(cycle.length, WOTD_CYCLE_DAYS);
      assert.ok(cycle.length >= 366);
      assert.equal(new Set(cycle).size, cycle.length, langs.join());
    }
  });
  it('wordOfTheDayCycle - is deterministic and independent of input order', () => {
    const a = wordOfTheDayCycle(table, ['ig', 'yo']);
    const b = wordOfTheDayCycle(FactsTable.from([...all].reverse()), ['ig', 'yo']);
    assert.deepEqual(a, b);
  });
  it('wordOfTheDayCycle - prefers common words with glosses and never picks a word without glosses', () => {
    const byGlobalRank = new Map(all.map((f) => [f.globalRank, f]));
    const cycle = wordOfTheDayCycle(table, ['ig']);
    assert.ok(cycle.every((p) => (byGlobalRank.get(p)?.glossCount ?? 0) > 0));
    assert.ok(cycle.every((p) => byGlobalRank.get(p)?.classroomFit));
    // The common glossed words fit for a classroom exceed the 732-day cycle, so every day gets a common word.
    assert.ok(facts(3000, 'ig').filter((f) => f.isCommon && f.glossCount > 0 && f.classroomFit).length > WOTD_CYCLE_DAYS);
    assert.ok(cycle.every((p) => byGlobalRank.get(p)?.isCommon));
    // Among common words, those with examples come first.
    const withExamples = facts(3000, 'ig').filter((f) => f.isCommon && f.glossCount > 0 && f.classroomFit && f.exampleCount > 0).length;
    assert.equal(cycle.filter((p) => (byGlobalRank.get(p)?.exampleCount ?? 0) > 0).length, withExamples);
  });
  it('wordOfTheDayCycle - alternates languages in the cross-language pool', () => {
    const byGlobalRank = new Map(all.map((f) => [f.globalRank, f]));
    const langs = wordOfTheDayCycle(table, ['ig', 'yo']).map((p) => byGlobalRank.get(p)?.language);
    assert.equal(langs.filter((l) => l === 'ig').length, WOTD_CYCLE_DAYS / 2);
  });
  it('cyclePosition - consecutive days take consecutive positions, wrapping at the cycle length', () => {
    const d = dayNumber('2026-01-01');
    assert.equal(dateOfDay(d), '2026-01-01');
    assert.equal((cyclePosition(dateOfDay(d + 1), 10) - cyclePosition('2026-01-01', 10) + 10) % 10, 1);
  });
});

describe('classroomUnfitReason', () => {
  const entry = (language: string, headword: string, glosses: string[], partOfSpeech = 'noun') => ({ language, headword, partOfSpeech, glosses });
  const cases: [string, ReturnType<typeof entry>][] = [
    ['a source label (vulgar)', entry('af', 'naai', ['stitch', 'sew', '(vulgar) have sex, fuck'], 'verb')],
    ['a source label (derogatory)', entry('zu', 'liKula', ['(derogatory) Indian person'])],
    ['a sexual word without a label', entry('yo', 'okó', ['penis'])],
    ['the reviewed list, whatever the glosses say', entry('af', 'gat', ['hole'])],
    ['a pointer without a meaning', entry('ig', 'ụma', ['used in'])],
    ['the name of a letter', entry('yo', 'tí', ['The name of the Latin script letter T/t.'])],
    ['a letter', entry('af', 'M', ['The thirteenth letter of the Afrikaans alphabet'], 'letter')],
    ['an affix', entry('ig', '-gbọ', ['prefix'])],
    ['a stray mark', entry('ig', '`', ['a mark'])],
    ['a broken record', entry('ig', '( -gbọ 1.', ['see -gbọ'])],
  ];
  for (const [what, candidate] of cases) {
    it(`classroomUnfitReason - refuses ${what}`, () => {
      assert.ok(classroomUnfitReason(candidate), JSON.stringify(candidate));
    });
  }
  it('classroomUnfitReason - takes a common word with a meaning, a phrase and a word whose other sense is a pointer', () => {
    for (const candidate of [
      entry('ig', 'mmiri', ['water']),
      entry('yo', 'àlàáfíà', ['good health, peace (often used in salutations)']),
      entry('ig', 'ọkpụ', ['long; lasting', 'used in']),
      entry('af', 'goeie môre', ['good morning'], 'phrase'),
      entry('en', 'sextant', ['an instrument for measuring angles']),
    ]) {
      assert.equal(classroomUnfitReason(candidate), null, JSON.stringify(candidate));
    }
  });
});

describe('word of the day in the snapshot', () => {
  it('word of the day - every active language for two years from today: fit for a classroom, with a meaning', (t) => {
    const snap = openSnapshot(testSnapshotPath());
    t.after(() => snap.close());
    const today = dayNumber(new Date().toISOString().slice(0, 10));
    const active = snap.languages().filter((l) => l.status === 'active').map((l) => l.code);
    const refused: string[] = [];
    for (const language of [...active, null]) {
      for (let day = today; day < today + 731; day++) {
        const json = snap.wordOfTheDayJson(language, dateOfDay(day));
        assert.ok(json, `${language} ${dateOfDay(day)}`);
        const { entry } = WordOfTheDaySchema.parse(JSON.parse(json));
        const reason = classroomUnfitReason(entry);
        if (reason !== null) refused.push(`${language} ${dateOfDay(day)} ${entry.headword}: ${reason}`);
      }
    }
    assert.deepEqual(refused, []);
  });

  it('word of the day - every active language and the cross-language schedule have 366 distinct days from the build date', (t) => {
    const snap = openSnapshot(testSnapshotPath());
    t.after(() => snap.close());
    const start = dayNumber(snap.meta.builtAt.slice(0, 10));
    const active = snap.languages().filter((l) => l.status === 'active').map((l) => l.code);
    assert.ok(active.length >= 11, active.join(','));
    for (const language of [...active, null]) {
      const seen = new Set<number>();
      for (let day = start; day < start + 366; day++) {
        const date = dateOfDay(day);
        const json = snap.wordOfTheDayJson(language, date);
        assert.ok(json, `${language} ${date}`);
        const body = WordOfTheDaySchema.parse(JSON.parse(json));
        assert.equal(body.date, date);
        if (language) assert.equal(body.entry.language, language);
        assert.ok(body.entry.glosses.length > 0);
        seen.add(body.entry.id);
      }
      assert.equal(seen.size, 366, String(language));
    }
    const preparing = snap.languages().find((l) => l.status === 'preparing');
    assert.ok(preparing);
    assert.equal(snap.wordOfTheDayJson(preparing.code, '2026-01-01'), undefined);
    assert.equal(snap.wordOfTheDayJson('ig', '2026-02-30'), undefined);
  });
});
