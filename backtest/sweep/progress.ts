/**
 * Sweep progress on stderr: a cli-progress bar (runs done, failures, best metric so far, ETA) when stderr
 * is a terminal, and one log line per finished run otherwise (CI logs, pipes), so stdout stays free for
 * the summary line.
 */
import { Presets, SingleBar } from 'cli-progress';
import { metricValue } from './metric.ts';
import type { RunOutcome } from './types.ts';

export interface SweepProgress {
  start(total: number, workers: number): void;
  runDone(outcome: RunOutcome, done: number, total: number): void;
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
function tracker(ascending: boolean): { see(value: number | null): void; text(): string } {
  let best: number | null = null;
  return {
    see(value) {
      if (value !== null && (best === null || (ascending ? value < best : value > best))) best = value;
    },
    text: () => (best === null ? '-' : String(Number(best.toPrecision(6)))),
  };
}

export function createSweepProgress(options: ProgressOptions): SweepProgress {
  const best = tracker(options.ascending === true);
  let failed = 0;
  const seconds = (ms: number) => (ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(1)}s`);

  if (options.tty) {
    const bar = new SingleBar(
      {
        stream: options.stream,
        format: `sweep {bar} {value}/{total} runs | {failed} failed | best ${options.rankBy} {best} | ETA {eta_formatted}`,
        hideCursor: true,
        etaBuffer: 20,
      },
      Presets.shades_classic,
    );
    return {
      start: (total) => bar.start(total, 0, { failed: 0, best: '-' }),
      runDone(outcome, done) {
        if (!outcome.ok) failed++;
        best.see(outcome.ok ? metricValue(outcome.report, options.rankBy) : null);
        bar.update(done, { failed, best: best.text() });
      },
      stop: () => bar.stop(),
    };
  }

  const write = (line: string) => options.stream.write(`${line}\n`);
  return {
    start: (total, workers) => write(`sweep: ${total} run${total === 1 ? '' : 's'} on ${workers} worker${workers === 1 ? '' : 's'}`),
    runDone(outcome, done, total) {
      const head = `sweep: [${done}/${total}] run ${outcome.job.id}`;
      if (outcome.ok) {
        const value = metricValue(outcome.report, options.rankBy);
        best.see(value);
        write(`${head} ok ${options.rankBy}=${value ?? '-'} in ${seconds(outcome.durationMs)} (${comboText(outcome)})`);
      } else {
        failed++;
        write(`${head} FAILED ${outcome.error.code}: ${outcome.error.message.split('\n')[0] ?? ''} (${comboText(outcome)})`);
      }
    },
    stop: () => write(`sweep: done, ${failed} failed, best ${options.rankBy} ${best.text()}`),
  };
}

/** Progress that reports nothing (library callers, tests). */
export const silentProgress: SweepProgress = { start() {}, runDone() {}, stop() {} };
