/**
 * Family A KYC: `POST /v1/kyc/verify` `{externalId, email?, firstName?, lastName?}` -> KycStatus (starts
 * a simulated verification; again for the same externalId returns its current status),
 * `GET /v1/kyc/status?externalId=` -> KycStatus `{externalId, decision, status, subStatus, participantId,
 * account, updateTime}` (404 when this firm never started one for that id), and `POST /v1/kyc/webhook`
 * `{webhookUrl}` -> `{validated, message}` (200 either way; a malformed body is 400). All per firm.
 */
import { authCodecs } from '../../../domain/wire/families.ts';
import { invalidArgument, notFound } from '../../http/errors.ts';
import type { ExchangeCore } from '../../exchange/exchange-core.ts';
import type { KycService } from '../../kyc/kyc-service.ts';
import { decodeA, queryString, type ApiRoutes } from '../api-routes.ts';

export function registerKycRoutes(routes: ApiRoutes, core: ExchangeCore, kyc: KycService): void {
  routes.add('POST /v1/kyc/verify', 'ignored', async (context, caller) => {
    const request = await decodeA(context, authCodecs.kycVerifyRequest, core);
    return { body: authCodecs.kycStatus.encode(kyc.verify(caller.firm, request), undefined, { emitDefaults: true }) };
  });

  routes.add('GET /v1/kyc/status', 'ignored', (context, caller) => {
    const externalId = queryString(context.query, 'externalId');
    if (externalId === '') throw invalidArgument('externalId is required (?externalId=...)');
    const status = kyc.status(caller.firm, externalId);
    if (status === undefined) throw notFound(`no KYC verification was started for externalId ${externalId}`);
    return { body: authCodecs.kycStatus.encode(status, undefined, { emitDefaults: true }) };
  });

  routes.add('POST /v1/kyc/webhook', 'ignored', async (context, caller) => {
    const request = await decodeA(context, authCodecs.kycWebhookRequest, core);
    const result = await kyc.registerWebhook(caller.firm, request.webhookUrl);
    return { body: authCodecs.kycWebhookResponse.encode(result, undefined, { emitDefaults: true }) };
  });
}
