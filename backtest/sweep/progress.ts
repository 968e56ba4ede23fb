/**
 * Sweep progress on stderr: a cli-progress bar (runs done, running, failed, best metric so far, ETA) when
 * stderr is a terminal, and one log line per finished run otherwise (CI logs, pipes), so stdout stays free
 * for the summary line. The executors report what is running (`active`: the lanes in flight locally, the
 * jobs active on every queue worker) and occasional notes (a Redis reconnection, runs resumed from disk).
 */
import { Presets, SingleBar } from 'cli-progress';
import { metricValue } from './metric.ts';
import type { RunOutcome } from './types.ts';

export interface SweepProgress {
  /** `where`: what the runs go to (`2 workers`, `queue redis://…`). */
  start(total: number, where: string): void;
  runDone(outcome: RunOutcome, done: number, total: number): void;
  /** Runs in progress now (on every worker), and the workers seen when known. */
  active(running: number, workers?: number): void;
  /** A one-line message about the sweep as a whole. */
  note(text: string): void;
  stop(): void;
}

export interface ProgressOptions {
  readonly stream: NodeJS.WritableStream;
  /** Draw a bar (a terminal) or write log lines. */
  readonly tty: boolean;
  readonly rankBy: string;
  readonly ascending?: boolean;
}

function comboText(outcome: RunOutcome): string {
  return Object.entries(outcome.job.combo)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
}

/** Best metric so far, in the ranking's direction. */
function tracker(ascending: boolean): { see(value: number | null): void; text(): string; reset(): void } {
  let best: number | null = null;
  return {
    reset() {
      best = null;
    },
    see(value) {
      if (value !== null && (best === null || (ascending ? value < best : value > best))) best = value;
    },
    text: () => (best === null ? '-' : String(Number(best.toPrecision(6)))),
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function barProgress(options: ProgressOptions, best: ReturnType<typeof tracker>): SweepProgress {
  let failed = 0;
  let running = 0;
  let workers = '';
  const bar = new SingleBar(
    {
      stream: options.stream,
      format:
        `sweep {bar} {value}/{total} done | {running} running | {failed} failed{workers} | ` +
        `best ${options.rankBy} {best} | ETA {eta_formatted}{note}`,
      hideCursor: true,
      etaBuffer: 20,
    },
    Presets.shades_classic,
  );
  return {
    start(total) {
      failed = 0;
      running = 0;
      best.reset();
      bar.start(total, 0, { failed: 0, running: 0, best: '-', workers, note: '' });
    },
    runDone(outcome, done) {
      if (!outcome.ok) failed++;
      best.see(outcome.ok ? metricValue(outcome.report, options.rankBy) : null);
      bar.update(done, { failed, running, best: best.text() });
    },
    active(now, seen) {
      running = now;
      if (seen !== undefined) workers = ` | ${plural(seen, 'worker')}`;
      bar.update({ running, workers });
    },
    note: (text) => bar.update({ note: ` | ${text}` }),
    stop: () => bar.stop(),
  };
}

export function createSweepProgress(options: ProgressOptions): SweepProgress {
  const best = tracker(options.ascending === true);
  if (options.tty) return barProgress(options, best);
  let failed = 0;
  let running: number | undefined;
  const seconds = (ms: number) => (ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(1)}s`);
  const write = (line: string) => options.stream.write(`${line}\n`);
  // a queue worker's runs say where they ran and how many runs are in flight across the workers
  const where = (outcome: RunOutcome) => (outcome.worker === undefined ? '' : ` on ${outcome.worker}, ${running ?? 0} running`);
  return {
    start(total, on) {
      failed = 0;
      best.reset();
      write(`sweep: ${plural(total, 'run')} on ${on}`);
    },
    runDone(outcome, done, total) {
      const head = `sweep: [${done}/${total}] run ${outcome.job.label ?? outcome.job.id}`;
      if (outcome.ok) {
        const value = metricValue(outcome.report, options.rankBy);
        best.see(value);
        write(`${head} ok ${options.rankBy}=${value ?? '-'} in ${seconds(outcome.durationMs)} (${comboText(outcome)})${where(outcome)}`);
      } else {
        failed++;
        write(
          `${head} FAILED ${outcome.error.code}: ${outcome.error.message.split('\n')[0] ?? ''} (${comboText(outcome)})${where(outcome)}`,
        );
      }
    },
    active(now) {
      running = now;
    },
    note: (text) => write(`sweep: ${text}`),
    stop: () => write(`sweep: done, ${failed} failed, best ${options.rankBy} ${best.text()}`),
  };
}

/** Progress that reports nothing (library callers, tests). */
export const silentProgress: SweepProgress = { start() {}, runDone() {}, active() {}, note() {}, stop() {} };
