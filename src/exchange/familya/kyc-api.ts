/**
 * Family A KYC: webhook registration (the exchange sends a test request to the URL and registers it only
 * when that succeeds), a user's KYC status, and starting verification.
 */
import { authCodecs } from '../../domain/index.ts';
import type { KycStatusInfo, KycVerifyRequest, KycWebhookResponse } from '../../domain/index.ts';
import type { RequestOptions } from './call.ts';
import { decodeBody } from './call.ts';
import type { ApiContext } from './context.ts';
import { FamilyAError, FamilyAErrorCode, invalidRequest } from './errors.ts';
import { withDefaults } from './inputs.ts';

const opts = (options: RequestOptions | undefined) => (options === undefined ? {} : { options });

/** An absolute https URL without credentials, or FAMILY_A_INVALID_REQUEST. */
export function checkWebhookUrl(text: string): void {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidRequest('registerKycWebhook', `webhookUrl must be an absolute https URL, got ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'https:')
    throw invalidRequest(
      'registerKycWebhook',
      `webhookUrl must use https (the exchange calls only HTTPS URLs), got ${url.protocol.replace(':', '')}`,
    );
  if (url.username !== '' || url.password !== '') throw invalidRequest('registerKycWebhook', 'webhookUrl must not carry credentials');
}

/**
 * POST /v1/kyc/webhook `{webhookUrl}`. Resolves when the exchange validated and registered the URL;
 * FAMILY_A_REJECTED (with the exchange's explanation) when it did not.
 */
export async function registerKycWebhook(ctx: ApiContext, webhookUrl: string, options?: RequestOptions): Promise<KycWebhookResponse> {
  checkWebhookUrl(webhookUrl);
  const answer = await ctx.caller.call('registerKycWebhook', {
    body: authCodecs.kycWebhookRequest.encode({ webhookUrl }),
    ...opts(options),
  });
  const result = decodeBody('registerKycWebhook', () => authCodecs.kycWebhookResponse.decode(answer));
  if (!result.validated) {
    throw new FamilyAError(
      FamilyAErrorCode.Rejected,
      `registerKycWebhook: the exchange did not validate ${webhookUrl}${result.message === '' ? '' : `: ${result.message}`}`,
      {
        details: { operation: 'registerKycWebhook', message: result.message },
      },
    );
  }
  return result;
}

/** GET /v1/kyc/status `?externalId=`. */
export async function kycStatus(ctx: ApiContext, externalId: string, options?: RequestOptions): Promise<KycStatusInfo> {
  if (externalId === '') throw invalidRequest('kycStatus', 'externalId is required');
  const answer = await ctx.caller.call('kycStatus', { query: { externalId }, ...opts(options) });
  return decodeBody('kycStatus', () => authCodecs.kycStatus.decode(answer));
}

/** POST /v1/kyc/verify: starts verification for a user; answers the resulting status. */
export async function kycVerify(
  ctx: ApiContext,
  input: Pick<KycVerifyRequest, 'externalId'> & Partial<KycVerifyRequest>,
  options?: RequestOptions,
): Promise<KycStatusInfo> {
  if (input.externalId === '') throw invalidRequest('kycVerify', 'externalId is required');
  const request = withDefaults<KycVerifyRequest>({ externalId: '', email: '', firstName: '', lastName: '' }, input);
  const answer = await ctx.caller.call('kycVerify', { body: authCodecs.kycVerifyRequest.encode(request), ...opts(options) });
  return decodeBody('kycVerify', () => authCodecs.kycStatus.decode(answer));
}
