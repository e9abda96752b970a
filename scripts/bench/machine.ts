// Describes the machine and the software the figures were taken with, and what else was busy on it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  kernel: string;
  os: string;
  node: string;
  sqlite: string;
  packages: Record<string, string>;
  tools: Record<string, string>;
}

const ROOT = path.resolve(import.meta.dirname, '../..');
const PACKAGES = ['better-sqlite3', 'hyper-express', 'uWebSockets.js', 'nats', 'zod', 'pm2', 'esbuild', 'tsx'];

function packageVersion(name: string): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { name: string; version: string };
    return pkg.name === name ? pkg.version : `${pkg.name}@${pkg.version}`;
  } catch {
    return 'not installed';
  }
}

function firstLine(command: string, args: string[]): string {
  const r = spawnSync(command, args, { encoding: 'utf8' });
  return `${r.stdout ?? ''}${r.stderr ?? ''}`.split('\n').find((l) => l.trim())?.trim() ?? 'unknown';
}

function osName(): string {
  try {
    const m = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(fs.readFileSync('/etc/os-release', 'utf8'));
    return m ? m[1] : os.type();
  } catch {
    return os.type();
  }
}

export async function describeMachine(): Promise<MachineInfo> {
  const packages: Record<string, string> = {};
  for (const name of PACKAGES) packages[name] = packageVersion(name);
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(':memory:');
  const sqlite = (db.prepare('select sqlite_version() as v').get() as { v: string }).v;
  db.close();
  return {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: os.totalmem() / 1024 ** 3,
    kernel: os.release(),
    os: osName(),
    node: process.version,
    sqlite,
    packages,
    tools: {
      wrk: firstLine('wrk', ['--version']).replace(/\s+Copyright.*/, ''),
      'nats-server': firstLine('nats-server', ['--version']),
    },
  };
}

export interface Busyness {
  at: string;
  loadavg: number[];
  /** Share of CPU time not idle over one second, all cores. */
  busyPercent: number;
  /** Busiest processes over that second (top), with their command lines. */
  top: string[];
}

/** What else keeps the machine busy right now: the noise behind the figures. */
export function busyness(): Busyness {
  const r = spawnSync('top', ['-b', '-c', '-n', '2', '-d', '1', '-o', '%CPU', '-w', '180'], { encoding: 'utf8' });
  const frames = (r.stdout ?? '').split(/^top - /m);
  const last = frames[frames.length - 1] ?? '';
  const idle = /([\d.]+)\s*id,/.exec(last);
  const lines = last.split('\n');
  const header = lines.findIndex((l) => /^\s*PID\s+USER/.test(l));
  const top = lines
    .slice(header + 1, header + 10)
    .map((l) => l.trim().split(/\s+/))
    // Kernel threads ([name]) and the machine's own agents are not load worth naming.
    .filter((f) => f.length >= 12 && Number(f[8]) >= 2 && !f[11].startsWith('[') && !f[11].startsWith('line_io_tools'))
    .map((f) => `${f[8]}% ${f.slice(11).join(' ')}`.slice(0, 160));
  return { at: new Date().toISOString(), loadavg: os.loadavg(), busyPercent: idle ? 100 - Number(idle[1]) : Number.NaN, top };
}
