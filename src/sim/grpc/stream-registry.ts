/**
 * The open server streams: a per-firm concurrent stream limit (the venue allows about 20) and a handle to
 * drop them all from the server side (fault injection, tests, shutdown), as a lost connection would.
 */

export interface StreamSlot {
  /** Frees the slot (idempotent). */
  release(): void;
}

interface OpenStream {
  readonly firm: string;
  readonly drop: () => void;
}

export class StreamRegistry {
  private readonly open = new Set<OpenStream>();
  private readonly perFirm = new Map<string, number>();

  constructor(private readonly maxPerFirm: number) {}

  /** Takes a slot for `firm`, or undefined when the firm already has `maxPerFirm` open streams. */
  acquire(firm: string, drop: () => void): StreamSlot | undefined {
    const count = this.perFirm.get(firm) ?? 0;
    if (count >= this.maxPerFirm) return undefined;
    this.perFirm.set(firm, count + 1);
    const entry: OpenStream = { firm, drop };
    this.open.add(entry);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.open.delete(entry);
        const left = (this.perFirm.get(firm) ?? 1) - 1;
        if (left <= 0) this.perFirm.delete(firm);
        else this.perFirm.set(firm, left);
      },
    };
  }

  get limit(): number {
    return this.maxPerFirm;
  }

  /** Open streams, of one firm or in all. */
  count(firm?: string): number {
    return firm === undefined ? this.open.size : (this.perFirm.get(firm) ?? 0);
  }

  /** Ends every open stream with UNAVAILABLE, as a dropped connection would. */
  dropAll(): void {
    for (const stream of [...this.open]) stream.drop();
  }
}
