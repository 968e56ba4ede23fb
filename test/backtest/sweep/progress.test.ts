// Sweep progress in a terminal: one bar with the runs done, the runs in progress on every worker, the failures,
// the workers seen and the best metric; notes (a Redis reconnection, a resumed sweep) shown on the bar.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createSweepProgress } from '../../../backtest/sweep/progress.ts';
import type { RunOutcome, SweepJob } from '../../../backtest/sweep/types.ts';

/** Terminal control sequences (cursor moves, line clears) between the frames. */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, 'g');

const job = (run: number): SweepJob => ({
  run,
  id: String(run).padStart(3, '0'),
  dir: '/tmp/x',
  strategy: 's',
  data: 'd',
  combo: {},
  params: {},
});

describe('createSweepProgress in a terminal', () => {
  it('draws done, running, failed, workers and the best metric on one bar', () => {
    const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 240 });
    let text = '';
    stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    const progress = createSweepProgress({ stream, tty: true, rankBy: 'sharpe' });
    progress.start(24, 'queue redis://127.0.0.1:6379/0');
    progress.active(3, 2);
    const ok: RunOutcome = { job: job(1), ok: true, report: { sharpe: '1.5' }, durationMs: 10, worker: 'a:1' };
    const failed: RunOutcome = { job: job(2), ok: false, error: { code: 'X', message: 'y' }, durationMs: 10 };
    progress.runDone(ok, 1, 24);
    progress.runDone(failed, 2, 24);
    progress.active(2);
    progress.note('Redis is back; checking the jobs');
    progress.stop();
    // the last frame the bar drew
    const frames = text
      .split(/[\r\n]/)
      .map((frame) => frame.replace(ANSI, '').trim())
      .filter((frame) => frame !== '');
    expect(frames.at(-1)).toMatch(
      /2\/24 done \| 2 running \| 1 failed \| 2 workers \| best sharpe 1\.5 \| ETA \S+ \| Redis is back; checking the jobs/,
    );
  });
});
