// --walk-forward <train>/<test>[/<step>]: durations and fractions, the windows they make of a tape (the step
// defaulting to the test length, windows whose test ends after the tape left out), and the errors.
import { describe, expect, it } from 'vitest';
import { formatDuration, parseWalkForward, walkForwardWindows } from '../../../backtest/walk-forward/spec.ts';

const FROM = Date.parse('2026-11-30T14:00:00.000Z');
const TO = Date.parse('2026-11-30T14:45:00.000Z');
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(11, 16);
const spans = (text: string) =>
  walkForwardWindows(parseWalkForward(text), FROM, TO).map(
    (w) => `${iso(w.train.from)}-${iso(w.train.to)}|${iso(w.test.from)}-${iso(w.test.to)}`,
  );

describe('walk-forward windows', () => {
  it('moves on by the test length by default, so the test windows follow each other', () => {
    expect(spans('15m/10m')).toEqual(['14:00-14:15|14:15-14:25', '14:10-14:25|14:25-14:35', '14:20-14:35|14:35-14:45']);
  });

  it('takes a step, fractions of the tape and compound durations', () => {
    expect(spans('20m/10m/15m')).toEqual(['14:00-14:20|14:20-14:30', '14:15-14:35|14:35-14:45']);
    // 45 minutes: 0.4 is 18m, 0.2 is 9m
    expect(spans('0.4/0.2')).toEqual(['14:00-14:18|14:18-14:27', '14:09-14:27|14:27-14:36', '14:18-14:36|14:36-14:45']);
    expect(spans('50%/25%')).toEqual(['14:00-14:22|14:22-14:33', '14:11-14:33|14:33-14:45']);
    expect(spans('0h20m/900s')).toEqual(['14:00-14:20|14:20-14:35']);
  });

  it('numbers the windows from 1 and keeps exact milliseconds', () => {
    const windows = walkForwardWindows(parseWalkForward('1.5s/500ms'), FROM, FROM + 3000);
    expect(windows).toEqual([
      { index: 1, train: { from: FROM, to: FROM + 1500 }, test: { from: FROM + 1500, to: FROM + 2000 } },
      { index: 2, train: { from: FROM + 500, to: FROM + 2000 }, test: { from: FROM + 2000, to: FROM + 2500 } },
      { index: 3, train: { from: FROM + 1000, to: FROM + 2500 }, test: { from: FROM + 2500, to: FROM + 3000 } },
    ]);
  });

  it('says how long the tape is when no window fits', () => {
    expect(() => spans('6h/2h')).toThrow(
      expect.objectContaining({
        code: 'WALK_FORWARD_NO_WINDOW',
        message: expect.stringContaining(
          'the tape spans 45m (2026-11-30T14:00:00.000Z .. 2026-11-30T14:45:00.000Z), less than one window of 6h training and 2h testing',
        ),
      }),
    );
  });

  it.each([
    ['6h', '1 part'],
    ['6h/2h/1h/1h', '4 parts'],
    ['6x/2h', 'the train length "6x" is neither a duration nor a fraction'],
    ['6h/1.5', 'the test length "1.5" is neither'],
    ['6h/0', 'the test length 0 is not a fraction of the tape above 0'],
    ['6h/150%', 'the test length 150% is not a fraction'],
    ['0.5ms/1m', 'not a whole, positive number of milliseconds'],
  ])('refuses %s (%s)', (text, why) => {
    expect(() => parseWalkForward(text)).toThrow(
      expect.objectContaining({ code: 'WALK_FORWARD_INVALID', message: expect.stringContaining(why) }),
    );
  });

  it('prints durations the way they are written', () => {
    expect([formatDuration(45 * MIN), formatDuration(90 * MIN), formatDuration(2 * 86_400_000 + 1500), formatDuration(250)]).toEqual([
      '45m',
      '1h30m',
      '2d1.5s',
      '250ms',
    ]);
  });
});
