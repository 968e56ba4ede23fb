/**
 * Numeric limits and defaults from the spec and the notes, in one place for the simulator, the clients
 * and risk checks. The decoders do not enforce them (they check shapes, not business rules).
 */

/** Orders in one insert_order_cross. */
export const CROSS_ORDER_COUNT = 2;
/** Max requests in insert/cancel/cancel_replace list calls. */
export const MAX_LIST_REQUESTS = 20;
/** Family A order book depth: default and maximum. */
export const ORDERBOOK_DEPTH_DEFAULT = 3;
export const ORDERBOOK_DEPTH_MAX = 10;
/** Market data stream depth default and symbols per stream. */
export const MARKET_DATA_DEPTH_DEFAULT = 10;
export const MARKET_DATA_MAX_SYMBOLS = 1000;
/** /v1/refdata/instruments page size: default and maximum. */
export const INSTRUMENTS_PAGE_SIZE_DEFAULT = 50;
export const INSTRUMENTS_PAGE_SIZE_MAX = 1000;
/** Client assertion lifetime (seconds) and refresh margin of the sample client. */
export const ASSERTION_MAX_LIFETIME_S = 300;
export const TOKEN_REFRESH_MARGIN_S = 30;
/** KYC webhook acknowledgement deadline. */
export const KYC_WEBHOOK_ACK_MS = 5000;
/**
 * Characters a free-text field of an order, cancel, replace or cross request may hold (clord_id, cross_id,
 * client ids, self_match_prevention_id, symbol_sub_type, ...): the simulator refuses longer ones (400).
 */
export const MAX_TEXT_LENGTH = 128;
/** Characters of a KYC webhook URL the simulator registers. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;
