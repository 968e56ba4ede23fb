/**
 * KYC webhook registration per firm (`POST /v1/kyc/webhook`). A URL is accepted only when it is HTTPS
 * and answers a test notification with a 2xx status within the configured timeout; the answer is
 * `{validated, message}`. A malformed URL, one not HTTPS or one with credentials is refused naming the
 * problem (nothing is contacted); every failure of the test notification (unreachable, TLS failure, status N,
 * too slow) gets one generic message, so registration cannot be used to scan which ports listen or speak
 * TLS: the reason is only in the server's log. A validated URL replaces the firm's previous one; a failed
 * one leaves the previous URL in place.
 */
import type { Logger } from 'pino';
import type { KycNotification, KycWebhookResponse } from '../../domain/types/kyc.ts';
import type { WebhookClient } from './webhook-client.ts';

/** The test request's body: a notification no verification can produce (empty externalId). */
export const WEBHOOK_TEST_NOTIFICATION: KycNotification = {
  externalId: '',
  decision: '',
  status: 'NOT_STARTED',
  subStatus: 'WEBHOOK_TEST',
  participantId: '',
  account: '',
};

export const WEBHOOK_TEST_HEADER = 'x-kyc-webhook-test';

/** The one answer to a URL whose test notification failed, whatever the failure was. */
export const WEBHOOK_VALIDATION_FAILED =
  'the webhook URL did not pass validation: it must be reachable over HTTPS with a certificate the exchange trusts ' +
  'and answer the test notification with a 2xx status within the webhook timeout';

/** Scheme, host and port only: what logs and messages may show of a URL. */
export function urlOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid URL)';
  }
}

export class WebhookRegistry {
  private readonly urls = new Map<string, string>();

  constructor(
    private readonly client: WebhookClient,
    private readonly logger: Logger,
  ) {}

  url(firm: string): string | undefined {
    return this.urls.get(firm);
  }

  async register(firm: string, webhookUrl: string): Promise<KycWebhookResponse> {
    let parsed: URL;
    try {
      parsed = new URL(webhookUrl);
    } catch {
      return { validated: false, message: 'webhookUrl is not a valid absolute URL' };
    }
    if (parsed.protocol !== 'https:')
      return { validated: false, message: `the webhook URL must use HTTPS, not ${parsed.protocol.replace(':', '')}` };
    if (parsed.username !== '' || parsed.password !== '')
      return { validated: false, message: 'the webhook URL must not carry credentials' };
    const outcome = await this.client.postJson(parsed.toString(), WEBHOOK_TEST_NOTIFICATION, { [WEBHOOK_TEST_HEADER]: 'true' });
    if (!outcome.ok) {
      this.logger.info({ firm, origin: parsed.origin, failure: outcome.kind, reason: outcome.message }, 'KYC webhook registration refused');
      return { validated: false, message: WEBHOOK_VALIDATION_FAILED };
    }
    const replaced = this.urls.has(firm);
    this.urls.set(firm, parsed.toString());
    this.logger.info({ firm, origin: parsed.origin, replaced }, 'KYC webhook registered');
    return {
      validated: true,
      message: replaced ? 'webhook URL validated; it replaces the previous URL' : 'webhook URL validated and registered',
    };
  }
}
