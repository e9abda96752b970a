// Reads V8 .cpuprofile files (node --cpu-prof) into sampled call stacks: the one form that both the hottest
// functions table (profile.ts) and the flame graph (flamegraph.ts) are computed from.
import fs from 'node:fs';
import path from 'node:path';

import { originalLocation } from './sourcemap.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** One call stack and how many samples ended in it. */
export interface SampledStack {
  /** Outermost ((root)) first; each frame is `name` + NUL + `location` (see frameLabel). */
  frames: string[];
  hits: number;
}

/** Samples of a process waiting for work: left out, so that shares are of busy time. */
const IDLE = new Set(['(idle)']);

/** Hit counts per node over the samples of the last `windowUs` of the profile (the load, not start-up), or all. */
function hitsInWindow(profile: CpuProfile, windowUs: number | undefined): Map<number, number> {
  const hits = new Map<number, number>();
  const from = windowUs === undefined ? -Infinity : profile.endTime - windowUs;
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    if (t >= from) hits.set(profile.samples[i], (hits.get(profile.samples[i]) ?? 0) + 1);
  }
  return hits;
}

/** Function name and source location (a dist/ bundle line mapped back to the TypeScript through its map). */
function frameKey(n: ProfileNode): string {
  const f = n.callFrame;
  const url = f.url.replace(`file://${ROOT}/`, '').replace(/^.*node_modules\//, 'node_modules/');
  return `${f.functionName || '(anonymous)'}\u0000${url ? originalLocation(ROOT, `${url}:${f.lineNumber + 1}`) : ''}`;
}

export const frameLocation = (frame: string): string => frame.split('\u0000')[1] ?? '';
/** `name location`, for display. */
export const frameLabel = (frame: string): string => frame.replace('\u0000', ' ').trimEnd();

/**
 * The busy samples of all `files` as call stacks, over the last `windowUs` of each profile (all of it when
 * undefined). Stacks are not merged across files: callers aggregate.
 */
export function sampledStacks(files: readonly string[], windowUs?: number): SampledStack[] {
  const stacks: SampledStack[] = [];
  for (const file of files) {
    const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
    // Each node's frame once (mapping a location reads the bundle's source map), not once per stack it is in.
    const keys = new Map(profile.nodes.map((n) => [n.id, frameKey(n)]));
    const idle = new Set(profile.nodes.filter((n) => IDLE.has(n.callFrame.functionName)).map((n) => n.id));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    for (const [id, hits] of hitsInWindow(profile, windowUs)) {
      if (!keys.has(id) || idle.has(id)) continue;
      const frames: string[] = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) frames.push(keys.get(at) as string);
      stacks.push({ frames: frames.reverse(), hits });
    }
  }
  return stacks;
}
