/**
 * The config pieces the kill-and-restart suites share: the simulator's demo user and the family A client
 * registered with the test's public key, and the bot's `exchange` section pointing at that simulator (family A
 * for reference data, the gateway for trading; the password comes from $KILL_TEST_PASSWORD).
 */
import { ACCOUNT } from './entries.ts';

export const KILL_TEST_PASSWORD = 'Kill-Test-Alice-2026';

/** `sim.users` and `sim.clients` (indented for the `sim:` section). */
export function simAccessYaml(publicKeyFile: string, clientId: string): string {
  return `  users:
    - { username: alice, password: "${KILL_TEST_PASSWORD}", participant: firms/demo/users/alice, accounts: [${ACCOUNT}] }
  clients:
    - { clientId: ${clientId}, publicKeyFile: ${JSON.stringify(publicKeyFile)}, participant: firms/demo/users/alice,
        scopes: [read:instruments, read:marketdata, read:orders] }`;
}

/** The bot's `exchange` section for the simulator whose sim.ready line is `ready`. */
export function exchangeYaml(ready: Record<string, string>, privateKeyFile: string, clientId: string): string {
  return `exchange:
  apiUrl: ${ready['api'] ?? ''}
  authUrl: ${ready['auth'] ?? ''}
  gatewayUrl: ${ready['gateway'] ?? ''}
  familyA: { clientId: ${clientId}, privateKeyFile: ${JSON.stringify(privateKeyFile)}, participant: firms/demo/users/alice }
  gateway: { username: alice, password: "\${KILL_TEST_PASSWORD}" }`;
}
