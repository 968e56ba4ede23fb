/**
 * One terminal shared by the log and the status line. The status line is redrawn in place (`\r`, clear line);
 * a log line written while it shows would be glued to its end (`... | refused 0[15:37:54.699] INFO ...`). Here
 * every log line first clears the status line, is written on its own line, and the status line is drawn again
 * below it, so logs scroll above a status line that stays at the bottom.
 */
import { Writable } from 'node:stream';

const CLEAR_LINE = '\r\x1b[2K';

export interface TerminalStatus {
  /** Where log records go (a terminal stream: pretty output keeps its colours). */
  readonly logStream: NodeJS.WritableStream & { readonly isTTY: true };
  /** Where the live runner draws the status line (`\r\x1b[2K<line>`, and a final `\n`). */
  readonly statusStream: NodeJS.WriteStream;
}

export function terminalStatus(terminal: NodeJS.WritableStream): TerminalStatus {
  /** The status line now on screen (without its clear prefix); undefined: none (not drawn yet, or finished). */
  let shown: string | undefined;
  const statusStream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      const text = chunk.toString();
      if (text.startsWith('\r')) {
        shown = text.startsWith(CLEAR_LINE) ? text.slice(CLEAR_LINE.length) : text.slice(1);
        terminal.write(`${CLEAR_LINE}${shown}`);
      } else {
        if (text.includes('\n')) shown = undefined;
        terminal.write(text);
      }
      done();
    },
  });
  const logStream = Object.assign(
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        const text = chunk.toString();
        terminal.write(shown === undefined ? text : `${CLEAR_LINE}${text}${text.endsWith('\n') ? '' : '\n'}${shown}`);
        done();
      },
    }),
    { isTTY: true as const },
  );
  return { logStream, statusStream: statusStream as unknown as NodeJS.WriteStream };
}
