// Flame graphs of sampled call stacks (cpu-profile.ts): a self-contained SVG (each frame's width is its share
// of the samples; hover a frame for its name, location and share) and the same stacks as folded text, the
// input of flamegraph.pl, inferno and speedscope.
import { frameLabel, frameLocation } from './cpu-profile.ts';
import type { SampledStack } from './cpu-profile.ts';

const WIDTH = 1200;
const PAD = 10;
const FRAME_HEIGHT = 16;
const HEADER = 34;
/** Frames narrower than this many pixels are not drawn (nor anything they called). */
const MIN_FRAME_PX = 0.3;
/** Average glyph width of the 11 px label font, to fit labels in their frames. */
const GLYPH_PX = 6.6;

interface Frame {
  label: string;
  /** The source location ('' for V8's pseudo-frames and native functions). */
  location: string;
  value: number;
  children: Map<string, Frame>;
}

/** Folded stacks, one line per distinct stack: `outer;...;inner samples` (`;` in a label becomes `,`). */
export function foldedStacks(stacks: readonly SampledStack[]): string {
  const counts = new Map<string, number>();
  for (const { frames, hits } of stacks) {
    const line = frames.map((f) => frameLabel(f).replace(/;/g, ',')).join(';');
    counts.set(line, (counts.get(line) ?? 0) + hits);
  }
  return [...counts].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([line, n]) => `${line} ${n}\n`).join('');
}

function tree(stacks: readonly SampledStack[]): Frame {
  const root: Frame = { label: 'all', location: '', value: 0, children: new Map() };
  for (const { frames, hits } of stacks) {
    root.value += hits;
    let at = root;
    for (const f of frames) {
      const label = frameLabel(f);
      let child = at.children.get(label);
      if (!child) at.children.set(label, (child = { label, location: frameLocation(f), value: 0, children: new Map() }));
      child.value += hits;
      at = child;
    }
  }
  return root;
}

function depthOf(frame: Frame): number {
  let deepest = 0;
  for (const c of frame.children.values()) deepest = Math.max(deepest, depthOf(c));
  return 1 + deepest;
}

const escapeXml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Warm for the service's own code, blue for dependencies, green for Node's internals and native functions,
 * grey for V8's pseudo-frames ((root), (program), (garbage collector)).
 */
function colour({ label, location }: Frame): string {
  let h = 0;
  for (let i = 0; i < label.length; i++) h = (h * 31 + label.charCodeAt(i)) >>> 0;
  const jitter = h % 20;
  if (location === '' && label.startsWith('(')) return `hsl(0, 0%, ${62 + (jitter % 10)}%)`;
  if (location === '' || location.startsWith('node:')) return `hsl(${95 + jitter}, 45%, ${58 + (jitter % 8)}%)`;
  if (location.startsWith('node_modules/')) return `hsl(${195 + jitter}, 55%, ${62 + (jitter % 8)}%)`;
  return `hsl(${18 + jitter}, 85%, ${58 + (jitter % 8)}%)`;
}

/** An SVG flame graph: callers below their callees, siblings in name order (so graphs line up). */
export function flameGraphSvg(stacks: readonly SampledStack[], title: string): string {
  const root = tree(stacks);
  const depth = depthOf(root);
  const height = HEADER + depth * FRAME_HEIGHT + PAD;
  const scale = root.value === 0 ? 0 : (WIDTH - 2 * PAD) / root.value;
  const out: string[] = [];
  const draw = (frame: Frame, x: number, level: number): void => {
    const w = frame.value * scale;
    if (w < MIN_FRAME_PX) return;
    const y = height - PAD - (level + 1) * FRAME_HEIGHT;
    const share = ((100 * frame.value) / root.value).toFixed(2);
    const fits = Math.floor((w - 6) / GLYPH_PX);
    const text = fits < 3 ? '' : frame.label.length <= fits ? frame.label : `${frame.label.slice(0, fits - 2)}..`;
    out.push(
      `<g><title>${escapeXml(`${frame.label}: ${frame.value} samples, ${share} %`)}</title>` +
        `<rect x="${x.toFixed(2)}" y="${y}" width="${w.toFixed(2)}" height="${FRAME_HEIGHT - 1}" rx="2" fill="${colour(frame)}"/>` +
        (text ? `<text x="${(x + 3).toFixed(2)}" y="${y + FRAME_HEIGHT - 4}">${escapeXml(text)}</text>` : '') +
        '</g>',
    );
    let childX = x;
    for (const label of [...frame.children.keys()].sort()) {
      const child = frame.children.get(label) as Frame;
      draw(child, childX, level + 1);
      childX += child.value * scale;
    }
  };
  draw(root, PAD, 0);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}">`,
    '<style>text { font: 11px Verdana, sans-serif; fill: #000; pointer-events: none; } rect:hover { stroke: #000; stroke-width: 0.5; }</style>',
    `<rect width="100%" height="100%" fill="#fdfdf6"/>`,
    `<text x="${PAD}" y="20" style="font-size: 14px">${escapeXml(title)}</text>`,
    `<text x="${PAD}" y="${HEADER - 4}" style="fill: #555">${root.value} busy samples; a frame's width is its share, callers below callees; hover for details</text>`,
    ...out,
    '</svg>',
    '',
  ].join('\n');
}
