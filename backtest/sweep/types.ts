/**
 * The sweep's contract between orchestration and whatever runs one backtest: a `SweepJob` in (one grid
 * combination, its run folder), a `SweepJobResult` out (report.json's object; the job itself writes
 * report.json, run.json and report.html into `dir`). `SweepRunner` is injectable: the worker pool in production, a
 * fake in tests.
 */
import type { BacktestReport } from '../report/backtest-result.ts';

/** One value per swept param name. */
export type ParamSet = Readonly<Record<string, unknown>>;

export interface SweepJob {
  /** 1-based run number. */
  readonly run: number;
  /** Zero-padded run number, the folder name under `<out>/runs/`. */
  readonly id: string;
  /** Absolute run folder: `<out>/runs/<id>`. */
  readonly dir: string;
  readonly strategy: string;
  readonly data: string;
  readonly config?: string;
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
  | { readonly job: SweepJob; readonly ok: true; readonly report: BacktestReport; readonly durationMs: number }
  | { readonly job: SweepJob; readonly ok: false; readonly error: RunFailure; readonly durationMs: number };
