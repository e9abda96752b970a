// The documented alerts (docs/operating.md, "Alerts") point at things that exist: every metric a rule or its
// "first look" names is exported by the code (or is one of prom-client's defaults), and every log line it
// names (`"msg":"…"`) is written by the code.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import { collectDefaultMetrics, Registry } from 'prom-client';

import { ROOT } from '../support/stack.ts';

/** The rows of the Alerts table: its three cells each. */
function alertRows(): string[][] {
  const doc = readFileSync(path.join(ROOT, 'docs', 'operating.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### Alerts'), doc.indexOf('\n## ', doc.indexOf('### Alerts')));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => line.split(/(?<!\\)\|/).slice(1, -1).map((cell) => cell.trim()));
}

/** Every TypeScript source of the services, concatenated: where metric names and log messages are written. */
function servicesSource(): string {
  const texts: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (file.endsWith('.ts')) texts.push(readFileSync(file, 'utf8'));
    }
  };
  walk(path.join(ROOT, 'services'));
  return texts.join('\n');
}

/** Metric names in a cell: dict_*, process_*, nodejs_*; a histogram's series name its family. */
function metricNames(cell: string): string[] {
  return [...cell.matchAll(/\b((?:dict|process|nodejs)_[a-z0-9_]+)/g)].map(([, name]) => name.replace(/_(bucket|sum|count)$/, ''));
}

describe('documented alerts', () => {
  const rows = alertRows();
  const source = servicesSource();
  const defaults = new Registry();
  collectDefaultMetrics({ register: defaults });
  const defaultNames = new Set(defaults.getMetricsAsArray().map((m) => m.name));

  it('documented alerts - the table lists the alerts', () => {
    assert.ok(rows.length >= 10, JSON.stringify(rows));
    assert.ok(rows.every((r) => r.length === 3), JSON.stringify(rows));
  });

  it('documented alerts - every metric a rule or its first look names is exported', () => {
    const missing: string[] = [];
    for (const [rule, , firstLook] of rows) {
      for (const name of [...metricNames(rule), ...metricNames(firstLook)]) {
        if (!source.includes(`'${name}'`) && !defaultNames.has(name)) missing.push(`${name} (in ${rule})`);
      }
    }
    assert.deepEqual(missing, []);
  });

  it('documented alerts - every log line a first look names is written by the code', () => {
    const named = rows.flatMap(([rule, , firstLook]) => [...firstLook.matchAll(/"msg":"([^"]+)"/g)].map(([, msg]) => ({ rule, msg })));
    assert.ok(named.length > 0, 'the alerts name the log lines to look for');
    const missing = named.filter(({ msg }) => !source.includes(`msg: '${msg}'`)).map(({ rule, msg }) => `${msg} (in ${rule})`);
    assert.deepEqual(missing, []);
  });

  it('documented alerts - a first look that sends the reader to the logs names the line to look for', () => {
    const vague = rows.filter(([, , firstLook]) => /\blogs?\b/.test(firstLook) && !/"msg":"/.test(firstLook) && !/pm2 -- (logs|jlist)/.test(firstLook) && !/its logs|that process's logs/.test(firstLook));
    assert.deepEqual(vague.map(([rule]) => rule), []);
  });
});
