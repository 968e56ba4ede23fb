/**
 * Progress for the long-running commands, on stderr: a cli-progress bar when stderr is a terminal, else
 * plain log lines at most every few seconds (wall clock: this is CLI output, never replay logic).
 */
import cliProgress from 'cli-progress';

export interface Progress {
  /** `value` of `total`, with counters shown after the bar. */
  update(value: number, counters: Readonly<Record<string, string | number>>): void;
  stop(): void;
}

export interface ProgressOptions {
  readonly label: string;
  readonly total: number;
  /** How `value` and `total` read, e.g. MB or minutes of market time. */
  readonly unit: (value: number) => string;
  readonly stream?: NodeJS.WriteStream;
  readonly intervalMs?: number;
}

const describe = (counters: Readonly<Record<string, string | number>>) =>
  Object.entries(counters)
    .map(([k, v]) => `${k} ${v}`)
    .join(' | ');

export function createProgress(options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr;
  if (stream.isTTY === true) {
    let stopped = false;
    const bar = new cliProgress.SingleBar(
      {
        format: `${options.label} [{bar}] {percentage}% | {done} / {all} | {counters}`,
        stream,
        hideCursor: true,
        clearOnComplete: false,
        etaBuffer: 50,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(Math.max(1, options.total), 0, { done: options.unit(0), all: options.unit(options.total), counters: '' });
    return {
      update: (value, counters) =>
        bar.update(Math.min(value, Math.max(1, options.total)), { done: options.unit(value), counters: describe(counters) }),
      stop: () => {
        if (!stopped) bar.stop();
        stopped = true;
      },
    };
  }
  const every = options.intervalMs ?? 5000;
  let last = 0;
  let pending: { value: number; counters: Readonly<Record<string, string | number>> } | undefined;
  const line = (value: number, counters: Readonly<Record<string, string | number>>) =>
    stream.write(
      `${options.label}: ${options.unit(value)} of ${options.unit(options.total)} ` +
        `(${options.total > 0 ? Math.floor((100 * value) / options.total) : 100}%) | ${describe(counters)}\n`,
    );
  return {
    update: (value, counters) => {
      pending = { value, counters };
      const now = Date.now();
      if (now - last < every) return;
      last = now;
      pending = undefined;
      line(value, counters);
    },
    stop: () => {
      if (pending !== undefined) line(pending.value, pending.counters);
      pending = undefined;
    },
  };
}
