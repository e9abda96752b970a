// Section "compression": what compressing a search page per request costs against making it and against
// sending it as it is, at each setting the API uses (services/api/http/compression.ts), over pages of the
// search mix rendered on a fresh reader (compression-loop.ts, a process of its own).
import type { BenchContext, Figure, Section } from './context.ts';
import type { CompressionResult } from './compression-loop.ts';
import { f2, n0, table } from './markdown.ts';
import { runBenchScript } from './processes.ts';

async function run(ctx: BenchContext): Promise<CompressionResult> {
  const real = await ctx.realSnapshot();
  const w = await ctx.workload();
  console.log(`==> compression: pages of the search mix, each setting for ${ctx.opts.durationSeconds} s`);
  const result = await runBenchScript<CompressionResult>('compression-loop.ts',
    ['--root', ctx.subject.root, '--snapshot', real.path, '--queries', w.mixJson, '--seconds', String(ctx.opts.durationSeconds)]);
  for (const r of result.runs) console.log(`    ${r.label}: ${n0(r.microsPerPage)} µs per page, ${f2(r.ratio)} of the bytes`);
  return result;
}

function render(result: CompressionResult): string {
  const rows = result.runs.map((r) => [
    r.label,
    n0(r.microsPerPage),
    `${f2(r.microsPerPage / result.renderMicros)}×`,
    f2(r.ratio),
    n0(result.meanBytes * r.ratio),
  ]);
  return `## Compression: a search page compressed per request

${n0(result.pages)} pages of the search mix (mean ${n0(result.meanBytes)} bytes as they are), made on a fresh reader as a first
request makes them: ${n0(result.renderMicros)} µs per page for the search and the page. Then each setting compresses every
page in turn; pages under 1 KB go as they are.

${table(['setting', 'µs per page', 'against making the page', 'bytes sent / as they are', 'mean bytes sent'], [
    ['as they are', '0', '0×', '1.00', n0(result.meanBytes)],
    ...rows,
  ])}

A page no cache keeps (a first request) is compressed at the \`once\` setting; a kept page, an entry or a
fixed body is compressed once per coding at the \`kept\` setting and sent many times.
`;
}

function figures(result: CompressionResult): Figure[] {
  const once = result.runs.find((r) => r.effort === 'once' && r.coding === 'br');
  return once ? [
    { name: 'compression: brotli 2 per page', value: once.microsPerPage, unit: 'µs', better: 'lower' },
    { name: 'compression: brotli 2 bytes sent', value: once.ratio, unit: '', better: 'lower' },
  ] : [];
}

export const compressionSection: Section<'compression'> = { id: 'compression', run, render, figures };
