/**
 * A queued run's files on their way from the worker to the coordinator's out folder: packed by the worker
 * (every file of the run's folder, base64, with who ran it and how long it took, as gzipped JSON under the
 * job's result key), unpacked and written by the coordinator into `runs/<id>/`, each file through a temporary
 * file renamed into place and run.json last, so a run folder with run.json is a finished run, whatever moment
 * the coordinator was stopped at (what a resumed sweep trusts). The bytes are the worker's: report.json is the
 * file the backtest wrote, unchanged.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { z } from 'zod';
import { TradebotError } from '../../../src/errors.ts';
import type { BacktestReport } from '../../report/backtest-result.ts';

export const RUN_JSON = 'run.json';
export const REPORT_JSON = 'report.json';
export const ERROR_TXT = 'error.txt';

const packedSchema = z.strictObject({
  worker: z.string(),
  durationMs: z.number(),
  files: z.record(z.string(), z.string()),
});
export type PackedRun = z.output<typeof packedSchema>;

/** Every file of `dir` (one level), packed. */
export async function packRunFolder(dir: string, worker: string, durationMs: number): Promise<{ packed: Buffer; names: string[] }> {
  const names = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
  const files: Record<string, string> = {};
  for (const name of names.sort()) files[name] = (await readFile(path.join(dir, name))).toString('base64');
  return { packed: gzipSync(JSON.stringify({ worker, durationMs, files })), names };
}

export function unpackRun(buffer: Buffer, jobId: string): PackedRun {
  try {
    return packedSchema.parse(JSON.parse(gunzipSync(buffer).toString('utf8')));
  } catch (error) {
    throw new TradebotError('SWEEP_RESULT_INVALID', `the result of job ${jobId} in Redis cannot be read: ${(error as Error).message}`);
  }
}

async function writeAtomic(file: string, data: Buffer | string): Promise<void> {
  const temp = `${file}.${process.pid}.part`;
  await writeFile(temp, data);
  await rename(temp, file);
}

/** Writes the run's files into `dir` (run.json last; a stale error.txt removed first); returns report.json's object. */
export async function writeRunFolder(dir: string, run: PackedRun, jobId: string): Promise<BacktestReport> {
  const report = run.files[REPORT_JSON];
  if (report === undefined || run.files[RUN_JSON] === undefined)
    throw new TradebotError('SWEEP_RESULT_INVALID', `the result of job ${jobId} has no ${REPORT_JSON} or ${RUN_JSON}`);
  await mkdir(dir, { recursive: true });
  await removeLeftovers(dir);
  await rm(path.join(dir, ERROR_TXT), { force: true });
  for (const [name, data] of Object.entries(run.files)) {
    if (name !== RUN_JSON) await writeAtomic(path.join(dir, path.basename(name)), Buffer.from(data, 'base64'));
  }
  await writeAtomic(path.join(dir, RUN_JSON), Buffer.from(run.files[RUN_JSON], 'base64'));
  return JSON.parse(Buffer.from(report, 'base64').toString('utf8')) as BacktestReport;
}

/** Temporary files a coordinator stopped mid-write left behind. */
async function removeLeftovers(dir: string): Promise<void> {
  for (const name of await readdir(dir)) if (name.endsWith('.part')) await rm(path.join(dir, name), { force: true });
}

/** A failed run's folder: error.txt alone (files of an earlier attempt removed). */
export async function writeFailedRun(dir: string, text: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await removeLeftovers(dir);
  for (const name of [RUN_JSON, REPORT_JSON]) await rm(path.join(dir, name), { force: true });
  await writeAtomic(path.join(dir, ERROR_TXT), text);
}

/** A run finished by an earlier coordinator of the same sweep: its report and wall-clock seconds, or undefined. */
export async function finishedRun(dir: string): Promise<{ report: BacktestReport; durationMs: number } | undefined> {
  if (!existsSync(path.join(dir, RUN_JSON))) return undefined;
  try {
    const report = JSON.parse(await readFile(path.join(dir, REPORT_JSON), 'utf8')) as BacktestReport;
    const run = JSON.parse(await readFile(path.join(dir, RUN_JSON), 'utf8')) as { wallSeconds?: unknown };
    return { report, durationMs: typeof run.wallSeconds === 'number' ? run.wallSeconds * 1000 : 0 };
  } catch {
    return undefined; // damaged: run it again
  }
}
