/**
 * The execution adapter's write-ahead hook (implemented by the order journal's recorder): every request is
 * recorded, then `sync` makes the records durable, before the venue call that carries them is made. The
 * adapter records everything one engine step sends and syncs once for it. When `sync` throws, nothing that
 * can open an order (insert, replace, cross) is sent; cancels still go out, since they only lower risk.
 */
import type { Intent } from '../intents.ts';
import type { VenueCancelRequest, VenueCrossRequest, VenueOrderRequest, VenueReplaceRequest } from '../venue.ts';

export interface SendJournal {
  /** A risk-approved intent entered the adapter. */
  approved(intent: Intent): void;
  inserting(requests: readonly VenueOrderRequest[]): void;
  cancelling(requests: readonly VenueCancelRequest[]): void;
  /** `origClordId`: the order's clordId before the replace; `request.clordId` is the new one. */
  replacing(origClordId: string, request: VenueReplaceRequest): void;
  crossing(request: VenueCrossRequest): void;
  /** Makes everything recorded durable; throws when it cannot. */
  sync(): void;
}
