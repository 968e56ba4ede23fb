/**
 * `tradebot token --config <file>`: checks family A onboarding end to end. It signs a client assertion
 * with `exchange.familyA.privateKeyFile`, exchanges it at `{authUrl}/oauth/token` and prints the token's
 * type, lifetime and scopes (its `scope` claim, read without verifying). Never the token itself.
 * `--json` prints one JSON line instead, for scripts.
 */
import type { Command } from 'commander';
import type { TradebotConfig } from '../../config/index.ts';
import { TradebotError } from '../../errors.ts';
import type { ExchangeConfig } from '../../exchange/config.ts';
import type { Logger } from '../../logging/logger.ts';

/** The exchange section of a config file, or CONFIG_NO_EXCHANGE naming the file. */
export function exchangeOf(config: TradebotConfig, file: string): ExchangeConfig {
  if (config.exchange === undefined) {
    throw new TradebotError(
      'CONFIG_NO_EXCHANGE',
      `${file} has no exchange section; add exchange.apiUrl, authUrl, gatewayUrl and familyA (see docs)`,
      { kind: 'config' },
    );
  }
  return config.exchange;
}

export async function cliLogger(config: TradebotConfig, name: string): Promise<Logger> {
  const { createLogger } = await import('../../logging/logger.ts');
  return createLogger({ level: config.logging.level, pretty: config.logging.pretty, name });
}

export function registerTokenCommand(program: Command): void {
  program
    .command('token')
    .description('Obtain a family A access token and print its scopes and expiry (never the token)')
    .requiredOption('-c, --config <file>', 'config file with an exchange section (familyA: clientId, privateKeyFile, participant)')
    .option('--json', 'print one JSON line instead of text')
    .action(async (options: { config: string; json?: boolean }) => {
      // loaded here, not at start, so that `tradebot --help` stays fast
      const { loadConfig } = await import('../../config/index.ts');
      const { createTokenManager, tokenEndpointUrl } = await import('../../exchange/familya/index.ts');
      const config = loadConfig(options.config);
      const exchange = exchangeOf(config, options.config);
      const { tokens, close } = createTokenManager(exchange, { logger: await cliLogger(config, 'tradebot-token') });
      try {
        await tokens.getToken();
        const info = tokens.info();
        if (info === undefined)
          throw new TradebotError('TOKEN_MISSING', 'the token endpoint answered but no token was kept', { kind: 'internal' });
        const summary = {
          clientId: exchange.familyA?.clientId,
          tokenEndpoint: tokenEndpointUrl(exchange.authUrl),
          tokenType: info.tokenType,
          expiresIn: info.expiresInSeconds,
          expiresAt: new Date(info.expiresAt).toISOString(),
          scopes: info.scopes,
        };
        if (options.json === true) {
          process.stdout.write(`${JSON.stringify(summary)}\n`);
          return;
        }
        process.stdout.write(
          [
            `Token obtained for client ${summary.clientId ?? '?'} from ${summary.tokenEndpoint}`,
            `  type:       ${summary.tokenType}`,
            `  expires in: ${summary.expiresIn} s (at ${summary.expiresAt})`,
            `  scopes:     ${summary.scopes.length === 0 ? '(none in the token)' : summary.scopes.join(' ')}`,
            '',
          ].join('\n'),
        );
      } finally {
        await close();
      }
    });
}
