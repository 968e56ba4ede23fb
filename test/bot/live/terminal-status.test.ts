/**
 * The terminal shared by logs and the status line: a log line written while the status line shows clears it,
 * goes on its own line, and the status line is drawn again below it; before the first and after the final
 * status line, log lines pass through as they are.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { terminalStatus } from '../../../src/bot/live/terminal-status.ts';

function screen() {
  let text = '';
  const terminal = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { terminal, text: () => text };
}

describe('terminalStatus', () => {
  it('keeps log lines off the status line', () => {
    const { terminal, text } = screen();
    const { logStream, statusStream } = terminalStatus(terminal);
    logStream.write('[1] INFO starting\n');
    statusStream.write('\r\x1b[2K1s | active | refused 0');
    logStream.write('[2] INFO filled\n');
    statusStream.write('\r\x1b[2K2s | active | refused 0');
    statusStream.write('\n');
    logStream.write('[3] INFO stopped\n');
    expect(text()).toBe(
      '[1] INFO starting\n' +
        '\r\x1b[2K1s | active | refused 0' +
        '\r\x1b[2K[2] INFO filled\n1s | active | refused 0' +
        '\r\x1b[2K2s | active | refused 0' +
        '\n' +
        '[3] INFO stopped\n',
    );
    expect(logStream.isTTY).toBe(true);
  });
});
