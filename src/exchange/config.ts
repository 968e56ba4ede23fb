/**
 * The `exchange` section of a config file: where the real exchange (or the simulator) lives and how the
 * bot authenticates to it, for one environment (development, pre-production, production each get their own
 * file: credentials from one do not work in another).
 *
 *   exchange:
 *     apiUrl: https://api.dev.example.com          # family A {base_url}; also the token request's audience
 *     authUrl: https://auth.dev.example.com        # family A {auth_url} (token endpoint {auth_url}/oauth/token)
 *     gatewayUrl: https://rest.dev.example.com     # family B {gateway_url}
 *     privateLinkUrl: https://10.1.2.3             # optional: connect the gateway here, Host = gatewayUrl's host
 *     familyA: { clientId, privateKeyFile, participant, refreshMarginSeconds: 30 }
 *     gateway: { username, password: ${TRADEBOT_GATEWAY_PASSWORD}, mfaSecret: ${TRADEBOT_GATEWAY_MFA_SECRET} }
 *     kyc: { webhook: { host, port, path, certFile, keyFile, stateFile, allowFrom } }
 *
 * Secrets never sit in the file: the family A private key is a PEM file path, the gateway password and
 * TOTP secret are `${ENV_VAR}` references (the loader substitutes them; the schema cannot tell a literal
 * from a substituted value, so this is a rule for config authors, stated in every example). URLs must be
 * https, except loopback addresses (the embedded simulator serves plain http on 127.0.0.1).
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import type { ConfigContext } from '../config/fields.ts';
import { filePath, nonEmptyString, port, seconds } from '../config/fields.ts';

const PARTICIPANT = /^firms\/[A-Za-z0-9_.-]+\/users\/[A-Za-z0-9_.@-]+$/;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An https URL (http only for loopback hosts), origin plus optional path, no query or credentials. */
export function exchangeUrl(what: string) {
  return z.string({ error: `expected ${what} such as "https://api.example.com"` }).superRefine((text, ctx) => {
    let parsed: URL;
    try {
      parsed = new URL(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: `expected ${what} such as "https://api.example.com", got ${JSON.stringify(text)}` });
      return;
    }
    const loopback = LOOPBACK_HOSTS.has(parsed.hostname);
    if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && loopback)) {
      ctx.addIssue({
        code: 'custom',
        message: `must be an https URL (plain http is allowed only for localhost / 127.0.0.1), got ${JSON.stringify(text)}`,
      });
    }
    if (parsed.search !== '' || parsed.hash !== '') ctx.addIssue({ code: 'custom', message: 'must not have a query string or fragment' });
    if (parsed.username !== '' || parsed.password !== '')
      ctx.addIssue({ code: 'custom', message: 'must not carry credentials; use the familyA / gateway sections' });
  });
}

function familyASection(context: ConfigContext) {
  return z.strictObject({
    /** The client id the operator issued at onboarding (the assertion's iss and sub). */
    clientId: nonEmptyString('the client id from onboarding'),
    /** PEM private key made by `tradebot keygen` (RSA 2048, mode 0600). Never the key itself. */
    privateKeyFile: filePath(context),
    /** `firms/<firm>/users/<user>`, sent as `x-participant-id` on trading calls. */
    participant: z
      .string({ error: 'expected a participant such as "firms/demo/users/alice"' })
      .regex(PARTICIPANT, 'expected the form firms/<firm>/users/<user>'),
    /** Renew the access token this long before it expires (capped at half the token's lifetime). */
    refreshMarginSeconds: seconds('a refresh margin in seconds').default(30),
  });
}

function gatewaySection() {
  return z.strictObject({
    username: nonEmptyString('the gateway username'),
    /** Write `${TRADEBOT_GATEWAY_PASSWORD}`: never the password itself. */
    password: nonEmptyString('the gateway password as an ${ENV_VAR} reference, e.g. ${TRADEBOT_GATEWAY_PASSWORD}'),
    /** Base32 TOTP secret from enroll_mfa, as an `${ENV_VAR}` reference; only when MFA is on. */
    mfaSecret: z
      .string({ error: 'expected the TOTP secret as an ${ENV_VAR} reference' })
      .regex(/^[A-Z2-7]+=*$/, 'expected a base32 TOTP secret (A-Z, 2-7) from an ${ENV_VAR} reference')
      .optional(),
  });
}

/** An IPv4 / IPv6 address, or one with a `/prefix` within its family's bits. */
function isAddressOrCidr(entry: string): boolean {
  const [address = '', bits, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^[0-9]{1,3}$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32);
}

function kycWebhookSection(context: ConfigContext) {
  return z.strictObject({
    /** Interface to listen on: loopback unless set (0.0.0.0 exposes it, e.g. behind a load balancer). */
    host: z.string({ error: 'expected a host or address such as "127.0.0.1"' }).min(1).default('127.0.0.1'),
    /** Source addresses or CIDR ranges allowed to post notifications (the exchange's egress); default any. */
    allowFrom: z
      .array(
        z.string().refine((entry) => isAddressOrCidr(entry), {
          error: 'expected an IP address or a CIDR range such as "10.0.0.0/8"',
        }),
      )
      .optional(),
    /** 0 picks a free port (tests). */
    port: port(),
    /** Path the notifications are POSTed to (the registered URL's path). */
    path: z
      .string({ error: 'expected a path such as "/kyc/webhook"' })
      .regex(/^\/[A-Za-z0-9._~/-]*$/, 'expected a path starting with "/"')
      .default('/kyc/webhook'),
    /** TLS certificate chain (PEM) and its private key: the exchange only calls HTTPS URLs. */
    certFile: filePath(context),
    keyFile: filePath(context),
    /** JSON file remembering the last notification per user, so a restart does not replay them. */
    stateFile: filePath(context),
  });
}

export function exchangeSection(context: ConfigContext) {
  return z.strictObject({
    apiUrl: exchangeUrl('the family A API base URL'),
    authUrl: exchangeUrl('the family A token server base URL'),
    gatewayUrl: exchangeUrl('the trading gateway URL'),
    privateLinkUrl: exchangeUrl('the private link URL').optional(),
    /** host:port of the exchange's gRPC streaming endpoint (needed when bot.streams is grpc). */
    grpcAddress: z
      .string()
      .regex(/^[A-Za-z0-9.-]+:[0-9]{1,5}$/, 'expected host:port such as grpc.dev.exchange.example:443')
      .optional(),
    familyA: familyASection(context).optional(),
    gateway: gatewaySection().optional(),
    kyc: z.strictObject({ webhook: kycWebhookSection(context) }).optional(),
  });
}

export type ExchangeConfig = z.output<ReturnType<typeof exchangeSection>>;
export type FamilyAConfig = NonNullable<ExchangeConfig['familyA']>;
export type GatewayConfig = NonNullable<ExchangeConfig['gateway']>;
export type KycWebhookConfig = NonNullable<ExchangeConfig['kyc']>['webhook'];
