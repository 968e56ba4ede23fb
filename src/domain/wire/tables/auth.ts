/**
 * Field tables of authentication and KYC payloads. Their key naming is fixed whatever the family:
 * the OAuth token exchange is snake_case, the gateway auth calls and KYC are camelCase.
 */
import type {
  ChangePasswordRequest,
  ConfirmMfaRequest,
  EnrollMfaRequest,
  EnrollMfaResponse,
  LoginRequest,
  LoginResponse,
  LogoutRequest,
  RefreshRequest,
  RefreshResponse,
  RegisterRequest,
  TokenRequest,
  TokenResponse,
} from '../../types/auth.ts';
import type { KycNotification, KycStatusInfo, KycVerifyRequest, KycWebhookRequest, KycWebhookResponse } from '../../types/kyc.ts';
import { type MessageSpec, message } from '../codec.ts';
import { bool, int64, str, time } from '../fields.ts';

const camel = <T extends object>(spec: MessageSpec<T>) => message<T>({ ...spec, naming: 'camel' });

export const tokenRequestCodec = message<TokenRequest>({
  name: 'TokenRequest',
  naming: 'snake',
  fields: { clientId: str(), clientAssertionType: str(), clientAssertion: str(), audience: str(), grantType: str() },
});
export const tokenResponseCodec = message<TokenResponse>({
  name: 'TokenResponse',
  naming: 'snake',
  fields: { accessToken: str(), tokenType: str(), expiresIn: int64() },
});
export const registerRequestCodec = camel<RegisterRequest>({
  name: 'RegisterRequest',
  fields: { token: str(), password: str() },
});
export const loginRequestCodec = camel<LoginRequest>({
  name: 'LoginRequest',
  fields: { username: str(), password: str(), otp: str() },
});
export const loginResponseCodec = camel<LoginResponse>({
  name: 'LoginResponse',
  fields: {
    accessToken: str(),
    refreshToken: str(),
    accessIssueTime: time(),
    accessExpirationTime: time(),
    refreshIssueTime: time(),
    refreshExpirationTime: time(),
  },
});
export const refreshRequestCodec = camel<RefreshRequest>({ name: 'RefreshRequest', fields: { refreshToken: str() } });
export const refreshResponseCodec = camel<RefreshResponse>({
  name: 'RefreshResponse',
  fields: {
    accessToken: str(),
    accessIssueTime: time(),
    accessExpirationTime: time(),
    refreshToken: str(),
    refreshIssueTime: time(),
    refreshExpirationTime: time(),
  },
});
export const logoutRequestCodec = camel<LogoutRequest>({
  name: 'LogoutRequest',
  fields: { accessToken: str(), refreshToken: str() },
});
export const enrollMfaRequestCodec = camel<EnrollMfaRequest>({
  name: 'EnrollMfaRequest',
  fields: { username: str(), password: str() },
});
export const enrollMfaResponseCodec = camel<EnrollMfaResponse>({
  name: 'EnrollMfaResponse',
  fields: { enrollmentUrl: str() },
});
export const confirmMfaRequestCodec = camel<ConfirmMfaRequest>({
  name: 'ConfirmMfaRequest',
  fields: { username: str(), password: str(), otp: str() },
});
export const changePasswordRequestCodec = camel<ChangePasswordRequest>({
  name: 'ChangePasswordRequest',
  fields: { username: str(), oldPassword: str(), newPassword: str() },
});

const kycFields = {
  externalId: str(),
  /** Any string is kept as-is (a decision the exchange adds later must not be refused and lost). */
  decision: str(),
  /** Any string is kept as-is. */
  status: str(),
  subStatus: str(),
  participantId: str(),
  account: str(),
};
export const kycNotificationCodec = camel<KycNotification>({ name: 'KycNotification', fields: kycFields });
export const kycStatusCodec = camel<KycStatusInfo>({
  name: 'KycStatus',
  fields: { ...kycFields, updateTime: time() },
});
export const kycWebhookRequestCodec = camel<KycWebhookRequest>({
  name: 'KycWebhookRequest',
  fields: { webhookUrl: str() },
});
export const kycWebhookResponseCodec = camel<KycWebhookResponse>({
  name: 'KycWebhookResponse',
  fields: { validated: bool(), message: str() },
});
export const kycVerifyRequestCodec = camel<KycVerifyRequest>({
  name: 'KycVerifyRequest',
  fields: { externalId: str(), email: str(), firstName: str(), lastName: str() },
});
