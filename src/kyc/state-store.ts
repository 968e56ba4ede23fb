/**
 * The KYC receiver's memory, kept in a JSON file so that a restart does not emit again what was already
 * handled. Per user (`externalId`) it holds the latest notification and the facts of every notification
 * handled so far (status, decision, sub-status, participant, account). The exchange delivers at least once
 * and retries failed deliveries later, so a repeat can arrive after newer news:
 * - a notification whose facts were handled before is a duplicate, whenever it comes;
 * - a notification with a known status earlier in the flow than the latest one recorded (OPEN or ON_HOLD
 *   after CLOSED, NOT_STARTED after either) is stale: a late retry that must not move the user back;
 * - anything else is news (an unknown status always is).
 *
 * The file is written atomically (a temporary file in the same folder, then rename), so a crash leaves the
 * old state or the new one, never half of either. Its shape (version 1 files, without `handled`, still load):
 *   {"version": 2, "users": {"<externalId>": {"status", "decision", "subStatus", "participantId", "account",
 *    "receivedAt": "<ISO time>", "handled": ["<facts key>", ...]}}}
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { KycNotification } from '../domain/index.ts';
import { KycError, KycErrorCode } from './errors.ts';

export const STATE_VERSION = 2;
const READABLE_VERSIONS: readonly unknown[] = [1, STATE_VERSION];

export interface RecordedNotification extends KycNotification {
  /** ISO 8601 UTC time the notification was recorded. */
  readonly receivedAt: string;
}

/** What the store makes of a notification: handled before, a late retry of an earlier step, or news. */
export type KycVerdict = 'duplicate' | 'stale' | 'news';

interface UserEntry {
  latest: RecordedNotification;
  /** Facts keys of every notification handled for this user. */
  readonly handled: Set<string>;
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

function parseState(text: string, file: string): Map<string, UserEntry> {
  const corrupt = (why: string) =>
    new KycError(
      KycErrorCode.StateCorrupt,
      `KYC state file ${file}: ${why}; move it aside to start with an empty state (past notifications may then be emitted again)`,
      {
        details: { file },
      },
    );
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw corrupt('not JSON');
  }
  if (typeof json !== 'object' || json === null || !READABLE_VERSIONS.includes((json as { version?: unknown }).version)) {
    throw corrupt(`expected {"version": ${STATE_VERSION}, "users": {...}}`);
  }
  const users = (json as { users?: unknown }).users;
  if (typeof users !== 'object' || users === null || Array.isArray(users)) throw corrupt('"users" must be an object');
  const out = new Map<string, UserEntry>();
  for (const [externalId, entry] of Object.entries(users as Record<string, unknown>)) {
    if (typeof entry !== 'object' || entry === null) throw corrupt(`users.${externalId} must be an object`);
    const e = entry as Record<string, unknown>;
    const str = (key: string) => (typeof e[key] === 'string' ? (e[key] as string) : '');
    const latest: RecordedNotification = {
      externalId,
      status: str('status'),
      decision: str('decision'),
      subStatus: str('subStatus'),
      participantId: str('participantId'),
      account: str('account'),
      receivedAt: str('receivedAt'),
    };
    const handled = e['handled'] ?? [];
    if (!Array.isArray(handled) || !handled.every((k) => typeof k === 'string'))
      throw corrupt(`users.${externalId}.handled must be an array of strings`);
    out.set(externalId, { latest, handled: new Set([...(handled as string[]), factsKey(latest)]) });
  }
  return out;
}

export class KycStateStore {
  private writes = 0;

  private constructor(
    readonly file: string,
    private readonly users: Map<string, UserEntry>,
  ) {}

  /** Opens the state file; a missing file is an empty state. */
  static async open(file: string): Promise<KycStateStore> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return new KycStateStore(file, new Map());
      throw new KycError(KycErrorCode.StateUnreadable, `KYC state file ${file}: cannot read it (${code ?? 'error'})`, {
        cause: error,
        details: { file },
      });
    }
    return new KycStateStore(file, parseState(text, file));
  }

  /** The latest notification recorded for a user. */
  last(externalId: string): RecordedNotification | undefined {
    return this.users.get(externalId)?.latest;
  }

  get size(): number {
    return this.users.size;
  }

  /** Duplicate (its facts were handled before), stale (an earlier step than the latest one) or news. */
  classify(notification: KycNotification): KycVerdict {
    const user = this.users.get(notification.externalId);
    if (user === undefined) return 'news';
    if (user.handled.has(factsKey(notification))) return 'duplicate';
    return isEarlierStep(notification.status, user.latest.status) ? 'stale' : 'news';
  }

  /** Records a notification as handled and as the user's latest, in memory; `save()` writes it out. */
  record(notification: KycNotification, receivedAtMs: number): RecordedNotification {
    const latest: RecordedNotification = { ...notification, receivedAt: new Date(receivedAtMs).toISOString() };
    const user = this.users.get(notification.externalId);
    if (user === undefined) this.users.set(notification.externalId, { latest, handled: new Set([factsKey(notification)]) });
    else {
      user.latest = latest;
      user.handled.add(factsKey(notification));
    }
    return latest;
  }

  /** Remembers a stale notification's facts, so its further repeats count as duplicates; the latest stays. */
  remember(notification: KycNotification): void {
    this.users.get(notification.externalId)?.handled.add(factsKey(notification));
  }

  /** Writes the whole state atomically (temp file + rename). Calls must not overlap (the processor serialises them). */
  async save(): Promise<void> {
    const users: Record<string, Omit<RecordedNotification, 'externalId'> & { handled: string[] }> = {};
    for (const [externalId, { latest, handled }] of this.users) {
      const { externalId: _id, ...rest } = latest;
      users[externalId] = { ...rest, handled: [...handled] };
    }
    const text = `${JSON.stringify({ version: STATE_VERSION, users }, null, 2)}\n`;
    const dir = path.dirname(this.file);
    const temp = path.join(dir, `.${path.basename(this.file)}.${process.pid}.${++this.writes}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      await mkdir(dir, { recursive: true });
      await writeFile(temp, text, { mode: 0o600 });
      await rename(temp, this.file);
    } catch (error) {
      await rm(temp, { force: true }).catch(() => undefined);
      throw new KycError(
        KycErrorCode.StateWriteFailed,
        `KYC state file ${this.file}: cannot write it (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
        {
          cause: error,
          details: { file: this.file },
        },
      );
    }
  }
}
