/**
 * The KYC receiver's authenticity check. The spec defines no signature for webhook notifications, so anyone
 * who can reach the receiver could post one; the receiver therefore never acts on what a notification claims.
 * It asks the exchange (`GET /v1/kyc/status?externalId=` through the family A client) and acts on the
 * exchange's answer: a notification is only a prompt to look. A forged one changes nothing; one the exchange
 * has moved past yields the exchange's newer facts.
 *
 * `Confirmer` runs the lookups: at most `maxInFlight` at a time, each within `timeoutMs`; notifications of
 * one user that arrive while that user's lookup waits for a free slot share it (the lookup starts after all of
 * them arrived, so its answer covers them all).
 */
import type { KycNotification } from '../domain/index.ts';
import type { FamilyAClient } from '../exchange/familya/client.ts';
import { FamilyAError, FamilyAErrorCode } from '../exchange/familya/errors.ts';

/**
 * The exchange's current facts of a user's KYC verification; undefined when the exchange knows no verification
 * for that id. Throws when the exchange cannot answer (the receiver then answers 503 and the exchange retries).
 */
export type KycConfirm = (externalId: string) => Promise<KycNotification | undefined>;

/** The confirmation through a family A client: its `kycStatus`, a 404 meaning "no such verification". */
export function familyAConfirmation(client: Pick<FamilyAClient, 'kycStatus'>): KycConfirm {
  return async (externalId) => {
    try {
      const status = await client.kycStatus(externalId);
      const { externalId: id, status: s, decision, subStatus, participantId, account } = status;
      return { externalId: id === '' ? externalId : id, status: s, decision, subStatus, participantId, account };
    } catch (error) {
      if (error instanceof FamilyAError && error.code === FamilyAErrorCode.Rejected && error.httpStatus === 404) return undefined;
      throw error;
    }
  };
}

export interface ConfirmerOptions {
  /** Lookups in flight at once. Default 16. */
  readonly maxInFlight?: number;
  /** A lookup not answered within this many ms fails (the notification is answered 503). Default 4000. */
  readonly timeoutMs?: number;
}

type Answer = KycNotification | undefined;

export class Confirmer {
  private readonly waiting = new Map<string, Promise<Answer>>();
  private readonly queue: (() => void)[] = [];
  private inFlight = 0;
  private readonly maxInFlight: number;
  private readonly timeoutMs: number;

  constructor(
    private readonly lookup: KycConfirm,
    options: ConfirmerOptions = {},
  ) {
    this.maxInFlight = options.maxInFlight ?? 16;
    this.timeoutMs = options.timeoutMs ?? 4000;
  }

  /** The exchange's facts for `externalId`, looked up after this call (shared with calls still waiting for it). */
  confirm(externalId: string): Promise<Answer> {
    const queued = this.waiting.get(externalId);
    if (queued !== undefined) return queued;
    const answer = new Promise<Answer>((resolve, reject) => {
      this.queue.push(() => {
        this.waiting.delete(externalId);
        this.inFlight++;
        this.withDeadline(externalId)
          .then(resolve, reject)
          .finally(() => {
            this.inFlight--;
            this.next();
          });
      });
    });
    this.waiting.set(externalId, answer);
    this.next();
    return answer;
  }

  private next(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) this.queue.shift()?.();
  }

  private withDeadline(externalId: string): Promise<Answer> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the exchange did not answer the KYC status lookup within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
      timer.unref();
    });
    return Promise.race([this.lookup(externalId), deadline]).finally(() => clearTimeout(timer));
  }
}
