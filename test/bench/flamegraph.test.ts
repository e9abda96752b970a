// The bench's profile reading (scripts/bench/cpu-profile.ts), hottest functions (profile.ts) and flame graphs
// (flamegraph.ts): over a real profile written by node --cpu-prof, and over a small hand-made one whose every
// number is known.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';

import { sampledStacks } from '../../scripts/bench/cpu-profile.ts';
import type { CpuProfile } from '../../scripts/bench/cpu-profile.ts';
import { flameGraphSvg, foldedStacks } from '../../scripts/bench/flamegraph.ts';
import { hotFunctions } from '../../scripts/bench/profile.ts';

/** A node of a hand-made profile. */
const node = (id: number, functionName: string, children: number[] = [], url = '', lineNumber = 0) => ({
  id,
  callFrame: { functionName, url, lineNumber },
  children,
});

/**
 * (root) → outer → inner, (root) → (garbage collector), (root) → (idle). Six samples 1 ms apart: inner,
 * idle, then inner, outer, GC, inner, the last four inside a 3.5 ms window at the end.
 */
const HANDMADE: CpuProfile = {
  nodes: [
    node(1, '(root)', [2, 4, 5]),
    node(2, 'outer', [3], 'file:///srv/app.js', 9),
    node(3, 'inner<T>', [], 'file:///srv/app.js', 19),
    node(4, '(garbage collector)'),
    node(5, '(idle)'),
  ],
  startTime: 0,
  endTime: 6000,
  samples: [3, 5, 3, 2, 4, 3],
  timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000],
};

function withProfileFile(profile: CpuProfile, use: (file: string) => void): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-prof-'));
  try {
    const file = path.join(dir, 'handmade.cpuprofile');
    fs.writeFileSync(file, JSON.stringify(profile));
    use(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('bench profiles and flame graphs', () => {
  it('bench profiles - the stacks of busy samples inside the window, idle left out', () => {
    withProfileFile(HANDMADE, (file) => {
      const all = foldedStacks(sampledStacks([file]));
      assert.equal(
        all,
        ['(root);(garbage collector) 1', '(root);outer file:///srv/app.js:10 1', '(root);outer file:///srv/app.js:10;inner<T> file:///srv/app.js:20 3', ''].join('\n'),
      );
      // The last 3.5 ms hold the samples at 3, 4, 5 and 6 ms: inner (twice), outer and GC; the idle one is out.
      const windowed = sampledStacks([file], 3500);
      assert.equal(windowed.reduce((n, s) => n + s.hits, 0), 4);
      const [inner, outer, gc] = hotFunctions(windowed);
      assert.deepEqual(
        { name: inner.name, location: inner.location, self: inner.selfPercent, total: inner.totalPercent, callers: inner.callers },
        { name: 'inner<T>', location: 'file:///srv/app.js:20', self: 50, total: 50, callers: ['100% from outer file:///srv/app.js:10 < (root)'] },
      );
      assert.deepEqual([outer.name, outer.selfPercent, outer.totalPercent], ['outer', 25, 75]);
      assert.deepEqual([gc.name, gc.callers], ['(garbage collector)', ['100% from (root)']]);
    });
  });

  it('bench profiles - a frame is as wide as its share of the samples, and names are escaped for XML', () => {
    withProfileFile(HANDMADE, (file) => {
      const svg = flameGraphSvg(sampledStacks([file]), 'hand-made <profile>');
      const rect = (label: string) => {
        const m = new RegExp(`<title>${label}: (\\d+) samples, ([\\d.]+) %</title><rect x="([\\d.]+)" y="(\\d+)" width="([\\d.]+)"`).exec(svg);
        assert.ok(m, `no frame for ${label}`);
        return { samples: Number(m[1]), share: Number(m[2]), x: Number(m[3]), y: Number(m[4]), width: Number(m[5]) };
      };
      const all = rect('all');
      const outer = rect('outer file:///srv/app.js:10');
      const inner = rect('inner&lt;T&gt; file:///srv/app.js:20');
      const gc = rect('\\(garbage collector\\)');
      assert.equal(all.samples, 5);
      assert.deepEqual([outer.samples, outer.share, inner.samples, gc.samples], [4, 80, 3, 1]);
      assert.ok(Math.abs(outer.width - 0.8 * all.width) < 0.02 && Math.abs(inner.width - 0.6 * all.width) < 0.02);
      assert.ok(outer.y < all.y && inner.y < outer.y, 'callees above their callers');
      assert.ok(gc.x < outer.x, 'siblings in name order: "(garbage collector)" before "outer"');
      assert.match(svg, /hand-made &lt;profile&gt;/);
      assert.doesNotMatch(svg, /inner<T>/);
    });
  });

  it('bench profiles - a profile written by node --cpu-prof names the function that spins and who called it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-prof-'));
    try {
      const script = path.join(dir, 'spin.js');
      fs.writeFileSync(
        script,
        [
          'function spinForAWhile() { let x = 0; for (let i = 0; i < 1e5; i++) x += Math.sqrt(i); return x; }',
          'function caller() { const end = Date.now() + 300; let x = 0; while (Date.now() < end) x += spinForAWhile(); return x; }',
          'caller();',
        ].join('\n'),
      );
      execFileSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, script]);
      const files = fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => path.join(dir, f));
      assert.equal(files.length, 1);
      const stacks = sampledStacks(files);
      const [hottest] = hotFunctions(stacks);
      assert.equal(hottest.name, 'spinForAWhile');
      assert.equal(hottest.location, `file://${script}:1`);
      assert.ok(hottest.selfPercent > 50, `${hottest.selfPercent} % of the samples`);
      assert.match(hottest.callers[0], new RegExp(`^\\d+% from caller file://${script}:2`));
      const folded = foldedStacks(stacks);
      assert.match(folded, new RegExp(`;caller file://${script}:2;spinForAWhile file://${script}:1 \\d+\\n`));
      assert.match(flameGraphSvg(stacks, 'spin'), /<title>spinForAWhile file:[^<]*spin\.js:1: \d+ samples/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
