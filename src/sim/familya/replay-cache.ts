/**
 * Remembers the `jti` of every accepted client assertion until the assertion expires, so a replayed
 * assertion is refused. Keys are per client; expired entries are pruned as new ones arrive (an
 * assertion lives at most 5 minutes, which bounds the cache by the token request rate).
 */

export class ReplayCache {
  private readonly seen = new Map<string, number>();
  private nextPruneAt = 0;

  constructor(private readonly clock: { now(): number }) {}

  private key(clientId: string, jti: string): string {
    return `${clientId}\u0000${jti}`;
  }

  has(clientId: string, jti: string): boolean {
    const until = this.seen.get(this.key(clientId, jti));
    return until !== undefined && until >= this.clock.now();
  }

  /** Records a jti until `expiresAtMs` (the assertion's `exp`). */
  remember(clientId: string, jti: string, expiresAtMs: number): void {
    const now = this.clock.now();
    if (now >= this.nextPruneAt) {
      for (const [key, until] of this.seen) if (until < now) this.seen.delete(key);
      this.nextPruneAt = now + 10_000;
    }
    this.seen.set(this.key(clientId, jti), expiresAtMs);
  }

  get size(): number {
    return this.seen.size;
  }
}
