/**
 * Reading a secret file from disk (a private key: the family A signing key, the KYC webhook's TLS key):
 * the file must be accessible to its owner only (no group or other permission bits, mode 0600 or 0400).
 * The mode is checked on the opened file, not by path, so a symlink cannot hide its target's mode and the
 * file cannot be swapped between the check and the read. POSIX only: Windows has no group/other mode bits
 * (fs reports 0o666 for every writable file). Each caller turns a problem into its own typed error with
 * its own stable code; the texts here say what to fix and never hold the file's contents.
 */
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';

/** Why a secret file was not read. */
export type SecretFileProblem =
  /** Missing, a directory, no permission...: `systemCode` is the errno code (ENOENT, EACCES, EISDIR). */
  | { readonly kind: 'unreadable'; readonly systemCode: string | undefined; readonly cause: unknown }
  /** Group or others have some access; `mode` is the file's mode as four octal digits (e.g. "0644"). */
  | { readonly kind: 'permissions'; readonly mode: string };

/** The mode bits group or others may not have on a secret file. */
const GROUP_OTHER_BITS = 0o077;

/** The file's mode as four octal digits when group or others have any access to it; undefined when owner-only. */
export function tooOpenMode(mode: number, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform === 'win32' || (mode & GROUP_OTHER_BITS) === 0) return undefined;
  return (mode & 0o777).toString(8).padStart(4, '0');
}

/** "group or others can access it (mode 0644); restrict it to its owner with `chmod 600 <file>`". */
export function permissionsFix(file: string, mode: string): string {
  return `group or others can access it (mode ${mode}); restrict it to its owner with \`chmod 600 ${file}\``;
}

/**
 * Reads `file` as UTF-8 text when only its owner can access it; otherwise throws what `fail` makes of the
 * problem (the caller's typed error).
 */
export function readSecretFile(file: string, fail: (problem: SecretFileProblem) => Error): string {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (cause) {
    throw fail({ kind: 'unreadable', systemCode: (cause as NodeJS.ErrnoException).code, cause });
  }
  try {
    let mode: string | undefined;
    let text: string;
    try {
      mode = tooOpenMode(fstatSync(fd).mode);
      text = mode === undefined ? readFileSync(fd, 'utf8') : '';
    } catch (cause) {
      throw fail({ kind: 'unreadable', systemCode: (cause as NodeJS.ErrnoException).code, cause });
    }
    if (mode !== undefined) throw fail({ kind: 'permissions', mode });
    return text;
  } finally {
    closeSync(fd);
  }
}
