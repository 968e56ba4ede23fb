/**
 * The sweep's contract between orchestration and whatever runs one backtest: a `SweepJob` in (one grid
 * combination, its run folder), a `SweepJobResult` out (report.json's object; the job itself writes
 * report.json, run.json and report.html into `dir`). `SweepRunner` is injectable: the worker pool in production, a
 * fake in tests. A `SweepExecutor` runs a whole batch of jobs: on this machine's threads (local-executor.ts) or
 * through a BullMQ queue on any number of workers (queue/coordinator.ts).
 */
import type { BacktestReport } from '../report/backtest-result.ts';
import type { SweepProgress } from './progress.ts';

/** One value per swept param name. */
export type ParamSet = Readonly<Record<string, unknown>>;

/** A stretch of a tape's market time, epoch ms, `to` exclusive (walk-forward windows). */
export interface TapeWindow {
  readonly from: number;
  readonly to: number;
}

export interface SweepJob {
  /** 1-based run number. */
  readonly run: number;
  /** Zero-padded run number, the folder name under `<out>/runs/`. */
  readonly id: string;
  /** How progress names the run when the id alone is ambiguous (walk-forward: `w02/013`). */
  readonly label?: string;
  /** Absolute run folder: `<out>/runs/<id>`. */
  readonly dir: string;
  readonly strategy: string;
  /** The tape; with `window`, the whole tape the window is cut from (executors replay the window's slice). */
  readonly data: string;
  readonly config?: string;
  /** The config file's text, when the job runs where `config` may not be readable (a queue worker). */
  readonly configText?: string;
  /** Replay only this stretch of `data` (walk-forward): the executor cuts it into a slice file first. */
  readonly window?: TapeWindow;
  /** Also write `series.json` with every equity sample (walk-forward's out-of-sample runs, to stitch them). */
  readonly series?: boolean;
  /** The grid's values for this run. */
  readonly combo: ParamSet;
  /** The base params with `combo` merged over them: what the strategy runs with. */
  readonly params: ParamSet;
}

export interface SweepJobResult {
  readonly report: BacktestReport;
}

export type SweepRunner = (job: SweepJob) => Promise<SweepJobResult>;

export interface RunFailure {
  readonly code: string;
  readonly message: string;
}

export type RunOutcome =
  | {
      readonly job: SweepJob;
      readonly ok: true;
      readonly report: BacktestReport;
      readonly durationMs: number;
      /** Who ran it, when not this process (a queue worker: `host:pid`). */
      readonly worker?: string;
    }
  | { readonly job: SweepJob; readonly ok: false; readonly error: RunFailure; readonly durationMs: number; readonly worker?: string };

export interface SweepExecutor {
  /** What progress says `jobs` runs go to: `2 workers`, `queue redis://127.0.0.1:6379/0`. */
  where(jobs: number): string;
  /** Runs every job (each writes its files into `job.dir`; a failed one error.txt); outcomes in job order. */
  runJobs(jobs: readonly SweepJob[], progress: SweepProgress): Promise<RunOutcome[]>;
}
