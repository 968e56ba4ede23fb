/**
 * The family A (`/v1`) client: OAuth 2.0 client credentials with a private-key JWT, and a typed method per
 * endpoint with Decimal prices.
 *
 * Modules:
 * - create-client.ts  createFamilyAClient / createTokenManager from the `exchange` config section
 * - client.ts         FamilyAClient: every /v1 endpoint as a method
 * - market-api.ts, trading-api.ts, account-api.ts, refdata-api.ts, kyc-api.ts: the endpoint methods
 * - endpoints.ts      the endpoint table (method, path, scope, auth, participant header, idempotency)
 * - call.ts           one authenticated call: headers, one retry after a 401, error mapping
 * - context.ts        shared decode-with-scales and paging helpers
 * - instruments.ts    InstrumentCatalog / MapInstrumentCatalog and the on-demand resolver
 * - inputs.ts         request inputs with proto3 defaults
 * - extra-resources.ts payloads the domain layer does not model yet (health, deposits, users, ...)
 * - token-manager.ts  TokenManager: cached token, refresh before expiry, one exchange in flight, invalidate()
 * - assertion.ts      the RS256 client assertion (iss = sub = client id, aud = token endpoint, fresh jti)
 * - private-key.ts    reading and checking the PEM private key
 * - errors.ts, token-errors.ts, error-body.ts: FAMILY_A_* errors and lenient error body parsing
 */
export { FamilyAClient } from './client.ts';
export type { FamilyAClientOptions, RequestOptions } from './client.ts';
export { createFamilyAClient, createTokenManager } from './create-client.ts';
export type { CreateFamilyAOptions, FamilyAStack } from './create-client.ts';
export { TokenManager, scopesOfToken } from './token-manager.ts';
export type { TokenInfo, TokenManagerOptions } from './token-manager.ts';
export type { TokenSource } from './call.ts';
export { PARTICIPANT_HEADER } from './call.ts';
export { buildClientAssertion, tokenEndpointUrl, TOKEN_PATH } from './assertion.ts';
export { loadPrivateKey, parsePrivateKey, publicKeyPemOf, MIN_RSA_BITS } from './private-key.ts';
export { ENDPOINTS } from './endpoints.ts';
export type { Endpoint, EndpointName } from './endpoints.ts';
export { FamilyAError, FamilyAErrorCode, isFamilyAError } from './errors.ts';
export { parseFamilyAErrorBody } from './error-body.ts';
export type { FamilyAErrorBody } from './error-body.ts';
export { MapInstrumentCatalog } from './instruments.ts';
export type { InstrumentCatalog, InstrumentLike } from './instruments.ts';
export type {
  CancelInput,
  ListInstrumentsInput,
  OpenOrdersInput,
  OrderInput,
  ReplaceInput,
  SearchOrdersInput,
  SearchTradesInput,
  TradeStatsInput,
} from './inputs.ts';
export type { InsertOrderResult } from './trading-api.ts';
export type { DepositInput, PositionsInput } from './account-api.ts';
export type { CreateUserRequest, Deposit, DepositRequest, DepositResult, HealthStatus } from './extra-resources.ts';
export { checkWebhookUrl } from './kyc-api.ts';
