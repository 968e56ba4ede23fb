/**
 * The KYC receiver's state file format. Version 3 is append-only JSON lines, so handling a notification costs
 * one appended line (batched and fsynced by the store), never a rewrite of the whole file:
 *
 *   {"version":3}
 *   {"externalId":"u-1","status":"OPEN","decision":"","subStatus":"","participantId":"","account":"",
 *    "receivedAt":"2026-01-01T00:00:00.000Z","latest":true}
 *
 * A line with `"latest": true` records a notification as the user's latest; `"latest": false` only remembers
 * its facts as handled (a stale one). Replaying the lines in order rebuilds the state. A torn last line (a
 * crash in the middle of an append: no newline and not JSON) is cut; any other unreadable line is corrupt.
 * Versions 1 and 2 (one JSON object `{"version", "users": {...}}`, written whole) still load; the store then
 * rewrites the file as version 3 (compaction: temp file, fsync, rename), as it does when the lines outgrow the
 * facts they hold.
 */
import { open, rename, rm, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { KycNotification } from '../domain/index.ts';
import { KycError, KycErrorCode } from './errors.ts';

export const STATE_VERSION = 3;
const LEGACY_VERSIONS: readonly unknown[] = [1, 2];

export interface RecordedNotification extends KycNotification {
  /** ISO 8601 UTC time the notification was recorded. */
  readonly receivedAt: string;
}

/** One line of a version 3 file: a notification handled, as the latest or only remembered. */
export interface StateLine {
  readonly notification: RecordedNotification;
  readonly latest: boolean;
}

export interface ReadState {
  readonly lines: readonly StateLine[];
  /** The file is version 1 or 2: rewrite it as version 3. */
  readonly legacy: boolean;
  /** Bytes of a torn last line to cut (0: none). */
  readonly tornBytes: number;
}

function corrupt(file: string, why: string): KycError {
  return new KycError(
    KycErrorCode.StateCorrupt,
    `KYC state file ${file}: ${why}; move it aside to start with an empty state (past notifications may then be emitted again)`,
    { details: { file } },
  );
}

const str = (e: Record<string, unknown>, key: string): string => (typeof e[key] === 'string' ? (e[key] as string) : '');

function recorded(externalId: string, e: Record<string, unknown>): RecordedNotification {
  return {
    externalId,
    status: str(e, 'status'),
    decision: str(e, 'decision'),
    subStatus: str(e, 'subStatus'),
    participantId: str(e, 'participantId'),
    account: str(e, 'account'),
    receivedAt: str(e, 'receivedAt'),
  };
}

/** The facts a version 2 `handled` key holds: the JSON array [status, decision, subStatus, participantId, account]. */
function handledFacts(externalId: string, key: string, receivedAt: string): RecordedNotification | undefined {
  let facts: unknown;
  try {
    facts = JSON.parse(key);
  } catch {
    return undefined;
  }
  if (!Array.isArray(facts) || facts.length !== 5 || !facts.every((f) => typeof f === 'string')) return undefined;
  const [status, decision, subStatus, participantId, account] = facts as string[];
  return { externalId, status, decision, subStatus, participantId, account, receivedAt } as RecordedNotification;
}

function readLegacy(json: unknown, file: string): ReadState {
  const users = (json as { users?: unknown }).users;
  if (typeof users !== 'object' || users === null || Array.isArray(users)) throw corrupt(file, '"users" must be an object');
  const lines: StateLine[] = [];
  for (const [externalId, entry] of Object.entries(users as Record<string, unknown>)) {
    if (typeof entry !== 'object' || entry === null) throw corrupt(file, `users.${externalId} must be an object`);
    const e = entry as Record<string, unknown>;
    const handled = e['handled'] ?? [];
    if (!Array.isArray(handled) || !handled.every((k) => typeof k === 'string'))
      throw corrupt(file, `users.${externalId}.handled must be an array of strings`);
    const latest = recorded(externalId, e);
    for (const key of handled as string[]) {
      const facts = handledFacts(externalId, key, latest.receivedAt);
      if (facts === undefined) throw corrupt(file, `users.${externalId}.handled holds an entry that is not a facts key`);
      lines.push({ notification: facts, latest: false });
    }
    lines.push({ notification: latest, latest: true });
  }
  return { lines, legacy: true, tornBytes: 0 };
}

function readLine(text: string, file: string, number: number): StateLine {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw corrupt(file, `line ${number} is not JSON`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw corrupt(file, `line ${number} is not an object`);
  const e = json as Record<string, unknown>;
  const externalId = e['externalId'];
  if (typeof externalId !== 'string' || externalId === '') throw corrupt(file, `line ${number} has no externalId`);
  if (typeof e['latest'] !== 'boolean') throw corrupt(file, `line ${number}: "latest" must be true or false`);
  return { notification: recorded(externalId, e), latest: e['latest'] };
}

/** Parses a state file's text (any readable version). */
export function readState(text: string, file: string): ReadState {
  const firstNewline = text.indexOf('\n');
  const head = firstNewline === -1 ? text : text.slice(0, firstNewline);
  let header: unknown;
  try {
    header = JSON.parse(head);
  } catch {
    // a version 1 or 2 file is one pretty-printed object over many lines
    try {
      header = JSON.parse(text);
    } catch {
      throw corrupt(file, 'not JSON');
    }
  }
  const version = typeof header === 'object' && header !== null ? (header as { version?: unknown }).version : undefined;
  if (LEGACY_VERSIONS.includes(version)) return readLegacy(header, file);
  if (version !== STATE_VERSION) throw corrupt(file, `expected a first line {"version": ${STATE_VERSION}}`);
  const rest = firstNewline === -1 ? '' : text.slice(firstNewline + 1);
  const parts = rest.split('\n');
  const last = parts.pop() ?? '';
  const lines: StateLine[] = [];
  parts.forEach((line, i) => {
    if (line.trim() !== '') lines.push(readLine(line, file, i + 2));
  });
  let tornBytes = 0;
  if (last.trim() !== '') {
    try {
      lines.push(readLine(last, file, parts.length + 2));
    } catch {
      tornBytes = Buffer.byteLength(last);
    }
  }
  return { lines, legacy: false, tornBytes };
}

/** One version 3 line (with its newline). */
export function formatLine(line: StateLine): string {
  const n = line.notification;
  return `${JSON.stringify({
    externalId: n.externalId,
    status: n.status,
    decision: n.decision,
    subStatus: n.subStatus,
    participantId: n.participantId,
    account: n.account,
    receivedAt: n.receivedAt,
    latest: line.latest,
  })}\n`;
}

export const HEADER = `${JSON.stringify({ version: STATE_VERSION })}\n`;

/** Writes a whole version 3 file atomically: temp file in the same folder, fsync, rename. */
export async function writeStateFile(file: string, lines: readonly StateLine[]): Promise<void> {
  const dir = path.dirname(file);
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await mkdir(dir, { recursive: true });
    const handle = await open(temp, 'w', 0o600);
    try {
      await handle.writeFile(HEADER + lines.map(formatLine).join(''));
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw new KycError(
      KycErrorCode.StateWriteFailed,
      `KYC state file ${file}: cannot write it (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      { cause: error, details: { file } },
    );
  }
}
