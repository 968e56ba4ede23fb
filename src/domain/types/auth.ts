/**
 * Domain types of authentication payloads: the family A OAuth token exchange (snake_case on the wire)
 * and the gateway /auth/v1beta1 calls (camelCase on the wire even though the gateway is otherwise
 * snake_case, as the spec shows).
 */
import type { EpochMs } from '../time.ts';

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
export const CLIENT_CREDENTIALS_GRANT = 'client_credentials';

export interface TokenRequest {
  readonly clientId: string;
  readonly clientAssertionType: string;
  readonly clientAssertion: string;
  /** The API base address, not the token endpoint. */
  readonly audience: string;
  readonly grantType: string;
}

export interface TokenResponse {
  readonly accessToken: string;
  readonly tokenType: string;
  /** Seconds. */
  readonly expiresIn: number;
}

export interface RegisterRequest {
  readonly token: string;
  readonly password: string;
}

export interface LoginRequest {
  readonly username: string;
  readonly password: string;
  /** Required only when MFA is enabled; '' otherwise. */
  readonly otp: string;
}

export interface LoginResponse {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly accessIssueTime: EpochMs | undefined;
  readonly accessExpirationTime: EpochMs | undefined;
  readonly refreshIssueTime: EpochMs | undefined;
  readonly refreshExpirationTime: EpochMs | undefined;
}

export interface RefreshRequest {
  readonly refreshToken: string;
}

export interface RefreshResponse {
  readonly accessToken: string;
  readonly accessIssueTime: EpochMs | undefined;
  readonly accessExpirationTime: EpochMs | undefined;
  /**
   * A rotated refresh token, when the exchange rotates them (the simulator does; the spec shows none): the one
   * sent is then spent and this one replaces it. '' when the exchange keeps the old one.
   */
  readonly refreshToken: string;
  readonly refreshIssueTime: EpochMs | undefined;
  readonly refreshExpirationTime: EpochMs | undefined;
}

export interface LogoutRequest {
  readonly accessToken: string;
  readonly refreshToken: string;
}

export interface EnrollMfaRequest {
  readonly username: string;
  readonly password: string;
}

export interface EnrollMfaResponse {
  /** `otpauth://totp/...` */
  readonly enrollmentUrl: string;
}

export interface ConfirmMfaRequest {
  readonly username: string;
  readonly password: string;
  readonly otp: string;
}

export interface ChangePasswordRequest {
  readonly username: string;
  readonly oldPassword: string;
  readonly newPassword: string;
}
