/**
 * The KYC receiver's memory: the last notification recorded per user (`externalId`), kept in a JSON file
 * so that a restart does not emit again what was already handled. A notification is a duplicate when it
 * equals the last one recorded for its user (status, decision, sub-status, participant and account): the
 * exchange delivers at least once, and a repeat carries nothing new. A change of any field is news.
 *
 * The file is written atomically (a temporary file in the same folder, then rename), so a crash leaves the
 * old state or the new one, never half of either. Its shape:
 *   {"version": 1, "users": {"<externalId>": {"status", "decision", "subStatus", "participantId", "account",
 *    "receivedAt": "<ISO time>"}}}
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { KycNotification } from '../domain/index.ts';
import { KycError, KycErrorCode } from './errors.ts';

export const STATE_VERSION = 1;

export interface RecordedNotification extends KycNotification {
  /** ISO 8601 UTC time the notification was recorded. */
  readonly receivedAt: string;
}

const FIELDS = ['status', 'decision', 'subStatus', 'participantId', 'account'] as const;

/** True when `a` and `b` carry the same KYC facts. */
export function sameFacts(a: KycNotification, b: KycNotification): boolean {
  return FIELDS.every((field) => a[field] === b[field]);
}

function parseState(text: string, file: string): Map<string, RecordedNotification> {
  const corrupt = (why: string) =>
    new KycError(KycErrorCode.StateCorrupt, `KYC state file ${file}: ${why}; move it aside to start with an empty state (past notifications may then be emitted again)`, {
      details: { file },
    });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw corrupt('not JSON');
  }
  if (typeof json !== 'object' || json === null || (json as { version?: unknown }).version !== STATE_VERSION) throw corrupt(`expected {"version": ${STATE_VERSION}, "users": {...}}`);
  const users = (json as { users?: unknown }).users;
  if (typeof users !== 'object' || users === null || Array.isArray(users)) throw corrupt('"users" must be an object');
  const out = new Map<string, RecordedNotification>();
  for (const [externalId, entry] of Object.entries(users as Record<string, unknown>)) {
    if (typeof entry !== 'object' || entry === null) throw corrupt(`users.${externalId} must be an object`);
    const e = entry as Record<string, unknown>;
    const str = (key: string) => (typeof e[key] === 'string' ? (e[key] as string) : '');
    out.set(externalId, {
      externalId,
      status: str('status'),
      decision: str('decision') as KycNotification['decision'],
      subStatus: str('subStatus'),
      participantId: str('participantId'),
      account: str('account'),
      receivedAt: str('receivedAt'),
    });
  }
  return out;
}

export class KycStateStore {
  private writes = 0;

  private constructor(
    readonly file: string,
    private readonly users: Map<string, RecordedNotification>,
  ) {}

  /** Opens the state file; a missing file is an empty state. */
  static async open(file: string): Promise<KycStateStore> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return new KycStateStore(file, new Map());
      throw new KycError(KycErrorCode.StateUnreadable, `KYC state file ${file}: cannot read it (${code ?? 'error'})`, { cause: error, details: { file } });
    }
    return new KycStateStore(file, parseState(text, file));
  }

  /** The last notification recorded for a user. */
  last(externalId: string): RecordedNotification | undefined {
    return this.users.get(externalId);
  }

  get size(): number {
    return this.users.size;
  }

  isDuplicate(notification: KycNotification): boolean {
    const last = this.users.get(notification.externalId);
    return last !== undefined && sameFacts(last, notification);
  }

  /** Records a notification in memory; `save()` writes it out. */
  record(notification: KycNotification, receivedAtMs: number): RecordedNotification {
    const entry: RecordedNotification = { ...notification, receivedAt: new Date(receivedAtMs).toISOString() };
    this.users.set(notification.externalId, entry);
    return entry;
  }

  /** Writes the whole state atomically (temp file + rename). Calls must not overlap (the processor serialises them). */
  async save(): Promise<void> {
    const users: Record<string, Omit<RecordedNotification, 'externalId'>> = {};
    for (const [externalId, { externalId: _id, ...rest }] of this.users) users[externalId] = rest;
    const text = `${JSON.stringify({ version: STATE_VERSION, users }, null, 2)}\n`;
    const dir = path.dirname(this.file);
    const temp = path.join(dir, `.${path.basename(this.file)}.${process.pid}.${++this.writes}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      await mkdir(dir, { recursive: true });
      await writeFile(temp, text, { mode: 0o600 });
      await rename(temp, this.file);
    } catch (error) {
      await rm(temp, { force: true }).catch(() => undefined);
      throw new KycError(KycErrorCode.StateWriteFailed, `KYC state file ${this.file}: cannot write it (${(error as NodeJS.ErrnoException).code ?? 'error'})`, {
        cause: error,
        details: { file: this.file },
      });
    }
  }
}
