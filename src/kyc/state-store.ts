/**
 * The KYC receiver's memory, kept in an append-only file (state-file.ts) so that a restart does not emit again
 * what was already handled. Per user (`externalId`) it holds the latest notification and the facts of every
 * notification handled so far (status, decision, sub-status, participant, account). The exchange delivers at
 * least once and retries failed deliveries later, so a repeat can arrive after newer news:
 * - a notification whose facts were handled before is a duplicate, whenever it comes;
 * - a notification with a known status earlier in the flow than the latest one recorded (OPEN or ON_HOLD
 *   after CLOSED, NOT_STARTED after either) is stale: a late retry that must not move the user back;
 * - anything else is news (an unknown status always is).
 *
 * `record` / `remember` change the memory and return the line to persist; `append` writes a batch of lines
 * with one write and one fdatasync. The file is compacted (rewritten atomically with one line per fact) when it
 * is opened as a legacy version, or holds more than twice the lines its facts need.
 */
import { open, readFile, mkdir, truncate } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { KycNotification } from '../domain/index.ts';
import { KycError, KycErrorCode } from './errors.ts';
import { HEADER, formatLine, readState, writeStateFile, type RecordedNotification, type StateLine } from './state-file.ts';

export { STATE_VERSION, type RecordedNotification } from './state-file.ts';

/** What the store makes of a notification: handled before, a late retry of an earlier step, or news. */
export type KycVerdict = 'duplicate' | 'stale' | 'news';

interface UserEntry {
  latest: RecordedNotification;
  /** Every notification handled for this user, by facts key. */
  readonly handled: Map<string, RecordedNotification>;
}

const FIELDS = ['status', 'decision', 'subStatus', 'participantId', 'account'] as const;

/** True when `a` and `b` carry the same KYC facts. */
export function sameFacts(a: KycNotification, b: KycNotification): boolean {
  return FIELDS.every((field) => a[field] === b[field]);
}

function factsKey(n: KycNotification): string {
  return JSON.stringify(FIELDS.map((field) => n[field]));
}

/** Position of a known status in the verification flow; OPEN and ON_HOLD may alternate. */
const FLOW_STEP: Readonly<Record<string, number>> = { NOT_STARTED: 0, OPEN: 1, ON_HOLD: 1, CLOSED: 2 };

function isEarlierStep(status: string, than: string): boolean {
  const step = FLOW_STEP[status];
  const latest = FLOW_STEP[than];
  return Object.hasOwn(FLOW_STEP, status) && Object.hasOwn(FLOW_STEP, than) && step !== undefined && latest !== undefined && step < latest;
}

function writeFailed(file: string, error: unknown): KycError {
  return new KycError(
    KycErrorCode.StateWriteFailed,
    `KYC state file ${file}: cannot write it (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    {
      cause: error,
      details: { file },
    },
  );
}

export class KycStateStore {
  private handle: FileHandle | undefined;
  private appends = 0;

  private constructor(
    readonly file: string,
    private readonly users: Map<string, UserEntry>,
    /** Bytes of a torn last line cut at open (0: none). */
    readonly cutBytes: number,
  ) {}

  /** Opens the state file (a missing file is an empty state), cutting a torn last line and compacting when due. */
  static async open(file: string): Promise<KycStateStore> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return new KycStateStore(file, new Map(), 0);
      throw new KycError(KycErrorCode.StateUnreadable, `KYC state file ${file}: cannot read it (${code ?? 'error'})`, {
        cause: error,
        details: { file },
      });
    }
    const read = readState(text, file);
    const store = new KycStateStore(file, new Map(), read.tornBytes);
    for (const line of read.lines) store.apply(line);
    if (read.legacy || read.lines.length > 2 * store.factCount() + 100) await store.compact();
    else if (read.tornBytes > 0) await truncate(file, Buffer.byteLength(text) - read.tornBytes);
    return store;
  }

  private apply(line: StateLine): void {
    const n = line.notification;
    const user = this.users.get(n.externalId);
    if (user === undefined) {
      if (!line.latest) return;
      this.users.set(n.externalId, { latest: n, handled: new Map([[factsKey(n), n]]) });
      return;
    }
    user.handled.set(factsKey(n), n);
    if (line.latest) user.latest = n;
  }

  private factCount(): number {
    let count = 0;
    for (const user of this.users.values()) count += user.handled.size;
    return count;
  }

  /** Rewrites the file with one line per fact handled (the latest last), atomically. */
  private async compact(): Promise<void> {
    const lines: StateLine[] = [];
    for (const user of this.users.values()) {
      for (const [key, n] of user.handled) if (key !== factsKey(user.latest)) lines.push({ notification: n, latest: false });
      lines.push({ notification: user.latest, latest: true });
    }
    await writeStateFile(this.file, lines);
  }

  /** The latest notification recorded for a user. */
  last(externalId: string): RecordedNotification | undefined {
    return this.users.get(externalId)?.latest;
  }

  get size(): number {
    return this.users.size;
  }

  /** Batches written so far (one write and one fdatasync each). */
  get writes(): number {
    return this.appends;
  }

  /** Duplicate (its facts were handled before), stale (an earlier step than the latest one) or news. */
  classify(notification: KycNotification): KycVerdict {
    const user = this.users.get(notification.externalId);
    if (user === undefined) return 'news';
    if (user.handled.has(factsKey(notification))) return 'duplicate';
    return isEarlierStep(notification.status, user.latest.status) ? 'stale' : 'news';
  }

  /** Records a notification as handled and as the user's latest, in memory; returns the line `append` persists. */
  record(notification: KycNotification, receivedAtMs: number): StateLine {
    const latest: RecordedNotification = { ...notification, receivedAt: new Date(receivedAtMs).toISOString() };
    const line = { notification: latest, latest: true };
    this.apply(line);
    return line;
  }

  /** Remembers a stale notification's facts, so its further repeats count as duplicates; the latest stays. */
  remember(notification: KycNotification, receivedAtMs: number): StateLine {
    const line = { notification: { ...notification, receivedAt: new Date(receivedAtMs).toISOString() }, latest: false };
    this.apply(line);
    return line;
  }

  /** Appends lines with one write and one fdatasync. Calls must not overlap (the processor serialises them). */
  async append(lines: readonly StateLine[]): Promise<void> {
    if (lines.length === 0) return;
    try {
      if (this.handle === undefined) {
        await mkdir(path.dirname(this.file), { recursive: true });
        const handle = await open(this.file, 'a', 0o600);
        if ((await handle.stat()).size === 0) await handle.write(HEADER);
        this.handle = handle;
      }
      await this.handle.write(lines.map(formatLine).join(''));
      await this.handle.datasync();
      this.appends++;
    } catch (error) {
      await this.handle?.close().catch(() => undefined);
      this.handle = undefined;
      throw writeFailed(this.file, error);
    }
  }

  async close(): Promise<void> {
    await this.handle?.close();
    this.handle = undefined;
  }
}
