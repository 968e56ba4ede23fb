/**
 * `tradebot kyc webhook register <https-url> --config <file>`: registers the KYC webhook URL with the
 * exchange (which tests it first; a refusal exits 1 with the exchange's reason).
 * `tradebot kyc webhook serve --config <file>`: runs the KYC webhook receiver from `exchange.kyc.webhook`
 * until SIGINT/SIGTERM, confirming every notification with `GET /v1/kyc/status` through the family A client of
 * `exchange.familyA` (required). Its first stdout line is `{"event":"kyc.webhook.ready","url":...}`, then one JSON
 * line per new notification (`"event":"kyc.notification"`); logs go to stderr.
 */
import type { Command } from 'commander';
import type { KycEvent } from '../../kyc/index.ts';
import { cliLogger, exchangeOf } from './token.ts';

function notificationLine(event: KycEvent): string {
  const { notification } = event;
  const line = {
    event: 'kyc.notification',
    ...notification,
    knownStatus: event.knownStatus,
    receivedAt: new Date(event.receivedAt).toISOString(),
  };
  return `${JSON.stringify(line)}\n`;
}

/** Resolves on the first SIGINT or SIGTERM, and removes its listeners. */
function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: string) => () => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(signal);
    };
    const onInt = on('SIGINT');
    const onTerm = on('SIGTERM');
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
  });
}

export function registerKycCommand(program: Command): void {
  const kyc = program.command('kyc').description('KYC webhook: register it with the exchange, or run the receiver');
  const webhook = kyc.command('webhook').description('The KYC webhook the exchange notifies of KYC status changes');

  webhook
    .command('register')
    .description('Register an HTTPS URL as the KYC webhook (the exchange sends it a test request first)')
    .argument('<https-url>', 'the public HTTPS URL of the running receiver, e.g. https://kyc.example.com/kyc/webhook')
    .requiredOption('-c, --config <file>', 'config file with an exchange section (familyA credentials)')
    .action(async (url: string, options: { config: string }) => {
      // loaded here, not at start, so that `tradebot --help` stays fast
      const { loadConfig } = await import('../../config/index.ts');
      const { createFamilyAClient } = await import('../../exchange/familya/index.ts');
      const config = loadConfig(options.config);
      const { client } = createFamilyAClient(exchangeOf(config, options.config), { logger: await cliLogger(config, 'tradebot-kyc') });
      try {
        const result = await client.registerKycWebhook(url);
        process.stdout.write(`KYC webhook registered: ${url}${result.message === '' ? '' : ` (${result.message})`}\n`);
      } finally {
        await client.close();
      }
    });

  webhook
    .command('serve')
    .description(
      'Run the KYC webhook receiver (exchange.kyc.webhook) until SIGINT/SIGTERM; prints a ready line, then one line per notification',
    )
    .requiredOption(
      '-c, --config <file>',
      'config file with exchange.kyc.webhook (port, certFile, keyFile, stateFile) and exchange.familyA',
    )
    .action(async (options: { config: string }) => {
      const { loadConfig } = await import('../../config/index.ts');
      const { KycError, KycErrorCode, familyAConfirmation, startKycReceiver } = await import('../../kyc/index.ts');
      const { createFamilyAClient } = await import('../../exchange/familya/index.ts');
      const config = loadConfig(options.config);
      const exchange = exchangeOf(config, options.config);
      const settings = exchange.kyc?.webhook;
      if (settings === undefined) {
        throw new KycError(
          KycErrorCode.NotConfigured,
          `${options.config} has no exchange.kyc.webhook section (host, port, certFile, keyFile, stateFile)`,
        );
      }
      if (exchange.familyA === undefined) {
        throw new KycError(
          KycErrorCode.NotConfigured,
          `${options.config} has no exchange.familyA section: the receiver confirms every notification with GET /v1/kyc/status ` +
            '(the exchange does not sign them), so it needs the family A client (clientId, privateKeyFile, participant)',
        );
      }
      const logger = await cliLogger(config, 'tradebot-kyc');
      const stopped = untilSignal();
      const { client } = createFamilyAClient(exchange, { logger });
      const receiver = await startKycReceiver({ ...settings, confirm: familyAConfirmation(client), logger }).catch(
        async (error: unknown) => {
          await client.close();
          throw error;
        },
      );
      const subscription = receiver.notifications$.subscribe((event) => {
        const { externalId, status, decision, subStatus } = event.notification;
        logger.info({ externalId, status, decision, subStatus, knownStatus: event.knownStatus }, 'KYC notification');
        process.stdout.write(notificationLine(event));
      });
      process.stdout.write(`${JSON.stringify({ event: 'kyc.webhook.ready', url: receiver.url, port: receiver.port })}\n`);
      const signal = await stopped;
      logger.info({ signal, ...receiver.stats }, 'stopping the KYC webhook receiver');
      await receiver.close();
      await client.close();
      subscription.unsubscribe();
    });
}
