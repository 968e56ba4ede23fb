// <out>/queue.json: the same inputs started again resume the same sweep id; other inputs are refused unless
// --force (a new id, the old one named so its jobs can be removed, the old results cleared); a folder with a
// local sweep's runs is refused as tradebot sweep refuses it.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSweepState } from '../../../../backtest/sweep/queue/sweep-state.ts';
import { tempDir } from '../../helpers/history-file.ts';

const QUEUE = 'redis://127.0.0.1:6379/0';

describe('openSweepState', () => {
  it('starts a sweep, resumes it with the same inputs, refuses other inputs, replaces it with --force', async () => {
    const out = path.join(tempDir(), 'out');
    const first = await openSweepState(out, 'fp-1', QUEUE, false);
    expect(first).toEqual({ sweepId: expect.stringMatching(/^[0-9a-f]{16}$/), resumed: false });
    mkdirSync(path.join(out, 'runs', '001'), { recursive: true });
    expect(await openSweepState(out, 'fp-1', QUEUE, false)).toEqual({ sweepId: first.sweepId, resumed: true });
    await expect(openSweepState(out, 'fp-2', QUEUE, false)).rejects.toMatchObject({
      code: 'SWEEP_RESUME_MISMATCH',
      message: expect.stringContaining(`holds queued sweep ${first.sweepId} of other inputs`),
    });
    const replaced = await openSweepState(out, 'fp-2', QUEUE, true);
    expect(replaced).toMatchObject({ resumed: false, replaced: first.sweepId });
    expect(replaced.sweepId).not.toBe(first.sweepId);
    expect(existsSync(path.join(out, 'runs'))).toBe(false);
  });

  it("refuses a folder holding a local sweep's runs unless --force", async () => {
    const out = path.join(tempDir(), 'out');
    mkdirSync(path.join(out, 'runs', '001'), { recursive: true });
    writeFileSync(path.join(out, 'runs', '001', 'report.json'), '{}');
    await expect(openSweepState(out, 'fp', QUEUE, false)).rejects.toMatchObject({ code: 'SWEEP_OUT_NOT_EMPTY' });
    expect(await openSweepState(out, 'fp', QUEUE, true)).toMatchObject({ resumed: false });
  });
});
