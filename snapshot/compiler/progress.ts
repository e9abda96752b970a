// Build progress: a redrawn bar on a terminal, plain lines otherwise (CI logs, pipes).

export interface Progress {
  /** Starts a phase; total = expected work units when known. */
  phase(name: string, total?: number): void;
  tick(n?: number): void;
  log(line: string): void;
  end(): void;
}

export const silentProgress: Progress = { phase() {}, tick() {}, log() {}, end() {} };

const BAR_WIDTH = 30;
const REDRAW_EVERY_MS = 100;
const PLAIN_EVERY_UNITS = 100_000;

export function createProgress(stream: NodeJS.WriteStream = process.stderr): Progress {
  const tty = stream.isTTY === true;
  let name = '';
  let total = 0;
  let done = 0;
  let started = Date.now();
  let lastDraw = 0;
  let lastPlain = 0;
  const draw = (force: boolean): void => {
    const now = Date.now();
    if (!force && now - lastDraw < REDRAW_EVERY_MS) return;
    lastDraw = now;
    const seconds = ((now - started) / 1000).toFixed(1);
    if (total > 0) {
      const ratio = Math.min(1, done / total);
      const filled = Math.round(ratio * BAR_WIDTH);
      stream.write(`\r${name.padEnd(24)} [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${done}/${total} ${seconds}s\x1b[K`);
    } else {
      stream.write(`\r${name.padEnd(24)} ${done} ${seconds}s\x1b[K`);
    }
  };
  const finish = (): void => {
    if (name === '') return;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (tty) {
      draw(true);
      stream.write('\n');
    } else stream.write(`${name}: done (${done} in ${seconds}s)\n`);
    name = '';
  };
  return {
    phase(next, expected = 0) {
      finish();
      name = next;
      total = expected;
      done = 0;
      started = Date.now();
      lastPlain = 0;
      if (!tty) stream.write(`${name}: started${total > 0 ? ` (${total})` : ''}\n`);
    },
    tick(n = 1) {
      done += n;
      if (tty) draw(false);
      else if (done - lastPlain >= PLAIN_EVERY_UNITS) {
        lastPlain = done;
        stream.write(`${name}: ${done}${total > 0 ? `/${total}` : ''}\n`);
      }
    },
    log(line) {
      if (tty && name !== '') stream.write('\r\x1b[K');
      stream.write(`${line}\n`);
    },
    end: finish,
  };
}
