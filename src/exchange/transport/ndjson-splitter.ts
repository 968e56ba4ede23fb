/**
 * Incremental NDJSON line splitter: bytes in any chunking -> complete lines with their 1-based line numbers.
 * Handles lines split across chunks (including inside a multi-byte UTF-8 character), CRLF endings, blank
 * lines (counted, not returned) and a final line without a trailing newline (returned by `end()`).
 */

export interface NdjsonLine {
  /** 1-based physical line number in the stream. */
  lineNumber: number;
  /** The line without its line ending. */
  text: string;
}

export class NdjsonSplitter {
  private readonly decoder = new TextDecoder('utf-8');
  private buffer = '';
  /** Where to look for the next newline: the held remainder is known to contain none. */
  private searchFrom = 0;
  private lineNumber = 0;

  /** Feeds one chunk; returns the lines it completed (possibly none). */
  push(chunk: Uint8Array | string): NdjsonLine[] {
    this.buffer += typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    return this.drain();
  }

  /** Ends the input; returns the last line when it had no trailing newline. */
  end(): NdjsonLine[] {
    this.buffer += this.decoder.decode();
    const lines = this.drain();
    const rest = this.buffer;
    this.buffer = '';
    this.searchFrom = 0;
    if (rest.length > 0) {
      this.lineNumber += 1;
      const text = rest.endsWith('\r') ? rest.slice(0, -1) : rest;
      if (text.trim().length > 0) lines.push({ lineNumber: this.lineNumber, text });
    }
    return lines;
  }

  /** Characters held for an incomplete line (lets callers cap line length). */
  get pendingLength(): number {
    return this.buffer.length;
  }

  private drain(): NdjsonLine[] {
    const lines: NdjsonLine[] = [];
    let start = 0;
    for (let nl = this.buffer.indexOf('\n', this.searchFrom); nl !== -1; nl = this.buffer.indexOf('\n', start)) {
      this.lineNumber += 1;
      const end = nl > start && this.buffer.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      const text = this.buffer.slice(start, end);
      if (text.trim().length > 0) lines.push({ lineNumber: this.lineNumber, text });
      start = nl + 1;
    }
    if (start > 0) this.buffer = this.buffer.slice(start);
    this.searchFrom = this.buffer.length;
    return lines;
  }
}
