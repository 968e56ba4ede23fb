// The `exchange` config section: defaults, https (plain http only on loopback), paths resolved against
// the config file's folder, secrets through ${ENV} references, and every problem reported with its path.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../../src/config/index.ts';

const FILE = '/etc/tradebot/development.yaml';

const yaml = (body: string) => `exchange:\n${body}`;
const base = `  apiUrl: https://api.dev.example.com
  authUrl: https://auth.dev.example.com
  gatewayUrl: https://rest.dev.example.com
`;

function problems(text: string, env: Record<string, string> = {}): string[] {
  try {
    parseConfig(text, { file: FILE, env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => `${p.path}: ${p.message}`);
    throw error;
  }
  return [];
}

describe('exchange config section', () => {
  it('parses a full section with defaults and resolves files against the config folder', () => {
    const config = parseConfig(
      yaml(`${base}  privateLinkUrl: https://10.1.2.3
  familyA:
    clientId: bot-dev
    privateKeyFile: keys/dev/private-key.pem
    participant: firms/acme/users/bot
  gateway:
    username: bot
    password: \${TRADEBOT_GATEWAY_PASSWORD}
    mfaSecret: \${TRADEBOT_GATEWAY_MFA_SECRET}
  kyc:
    webhook: { port: 8443, certFile: tls/cert.pem, keyFile: tls/key.pem, stateFile: /var/lib/tradebot/kyc.json }
`),
      { file: FILE, env: { TRADEBOT_GATEWAY_PASSWORD: 'from-env', TRADEBOT_GATEWAY_MFA_SECRET: 'JBSWY3DPEHPK3PXP' } },
    );
    expect(config.exchange?.familyA).toEqual({
      clientId: 'bot-dev',
      privateKeyFile: path.resolve('/etc/tradebot/keys/dev/private-key.pem'),
      participant: 'firms/acme/users/bot',
      refreshMarginSeconds: 30,
    });
    expect(config.exchange?.gateway).toEqual({ username: 'bot', password: 'from-env', mfaSecret: 'JBSWY3DPEHPK3PXP' });
    expect(config.exchange?.kyc?.webhook).toEqual({
      host: '127.0.0.1',
      port: 8443,
      path: '/kyc/webhook',
      certFile: '/etc/tradebot/tls/cert.pem',
      keyFile: '/etc/tradebot/tls/key.pem',
      stateFile: '/var/lib/tradebot/kyc.json',
    });
  });

  it('allows plain http only for loopback addresses (the simulator)', () => {
    expect(
      problems(yaml('  apiUrl: http://127.0.0.1:4000\n  authUrl: http://localhost:4001\n  gatewayUrl: http://127.0.0.1:4002\n')),
    ).toEqual([]);
    expect(
      problems(yaml('  apiUrl: http://api.example.com\n  authUrl: https://a.example.com\n  gatewayUrl: https://g.example.com\n')),
    ).toEqual([
      'exchange.apiUrl: must be an https URL (plain http is allowed only for localhost / 127.0.0.1), got "http://api.example.com"',
    ]);
  });

  it('reports every problem with its path', () => {
    const found = problems(
      yaml(`  apiUrl: https://user:pw@api.example.com
  authUrl: not a url
  familyA:
    clientId: ""
    privateKeyFile: k.pem
    participant: alice
    refreshMarginSecnds: 10
`),
    );
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^exchange\.apiUrl: must not carry credentials/),
        expect.stringMatching(/^exchange\.authUrl: expected the family A token server base URL/),
        expect.stringMatching(/^exchange\.gatewayUrl: is required/),
        expect.stringMatching(/^exchange\.familyA\.clientId: expected the client id/),
        'exchange.familyA.participant: expected the form firms/<firm>/users/<user>',
        'exchange.familyA.refreshMarginSecnds: unknown key; did you mean "refreshMarginSeconds"?',
      ]),
    );
  });

  it('names an unset secret variable', () => {
    expect(problems(yaml(`${base}  gateway:\n    username: bot\n    password: \${TRADEBOT_GATEWAY_PASSWORD}\n`))).toEqual([
      expect.stringMatching(/^exchange\.gateway\.password: environment variable TRADEBOT_GATEWAY_PASSWORD is not set/),
    ]);
  });
});
