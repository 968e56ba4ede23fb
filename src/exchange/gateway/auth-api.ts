/**
 * The gateway's authentication endpoints (`/auth/v1beta1/*`) as typed, stateless calls: register,
 * check_password, login, refresh_access_token, enroll_mfa, confirm_mfa, change_password and logout.
 * Bodies are built and checked with the domain's `authCodecs` (camelCase on the wire); the three responses
 * the domain has no codec for (register, check_password, confirm_mfa: "not shown" by the spec, shaped by
 * docs/decisions.md) are validated here. Token keeping and refresh live in session.ts.
 *
 * Idempotency (what the retry wrapper may repeat): login, refresh, check_password and logout are safe to
 * send twice; register (single-use token), enroll_mfa (each call makes a new secret), confirm_mfa and
 * change_password are not.
 */
import { z } from 'zod';
import { authCodecs } from '../../domain/index.ts';
import type { LoginRequest, LoginResponse, RefreshResponse } from '../../domain/index.ts';
import type { Transport } from '../transport/index.ts';
import { secretFromEnrollmentUrl } from '../auth/totp.ts';
import { decodeResponse, postGateway } from './call.ts';
import type { RequestOptions } from './call.ts';

export interface RegisterResult {
  readonly username: string;
  /** `firms/<firm_id>/users/<user_id>` */
  readonly participant: string;
}

export interface PasswordCheck {
  readonly valid: boolean;
  /** What is wrong with the password (empty when valid). */
  readonly messages: readonly string[];
}

export interface MfaEnrollment {
  /** `otpauth://totp/...`: a secret; show it to an authenticator app, never log it. */
  readonly enrollmentUrl: string;
  /** The base32 TOTP secret carried by the URL (configure it to log in unattended). */
  readonly secret: string;
}

export interface MfaConfirmation {
  readonly mfaEnabled: boolean;
}

const registerSchema = z.object({ username: z.string().default(''), participant: z.string().default('') });
const passwordCheckSchema = z.object({ valid: z.boolean(), messages: z.array(z.string()).default([]) });
const confirmSchema = z.object({ mfaEnabled: z.boolean().default(true) });

function parseWith<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(issue === undefined ? 'invalid body' : `${issue.path.join('.') || '<root>'}: ${issue.message}`);
  }
  return result.data;
}

export class GatewayAuthApi {
  constructor(private readonly transport: Transport) {}

  /** One-time registration with the account manager's registration JWT and a chosen password. */
  async register(request: { token: string; password: string }, options: RequestOptions = {}): Promise<RegisterResult> {
    const body = authCodecs.registerRequest.encode(request);
    const json = await postGateway(this.transport, 'auth', 'register', body, { ...options, idempotent: false });
    return decodeResponse('register', () => parseWith(registerSchema, json));
  }

  /** Password strength check before registering or changing a password. */
  async checkPassword(request: { password: string; username?: string }, options: RequestOptions = {}): Promise<PasswordCheck> {
    const body = { password: request.password, ...(request.username === undefined ? {} : { username: request.username }) };
    const json = await postGateway(this.transport, 'auth', 'check_password', body, { ...options, idempotent: true });
    return decodeResponse('check_password', () => parseWith(passwordCheckSchema, json));
  }

  /**
   * Username + password (+ `otp` when MFA is on) -> access and refresh tokens with their times. Resent on a
   * lost reply only without a one-time code: the gateway accepts a code once, so the same body would be
   * refused (the session retries with the next code instead).
   */
  async login(request: LoginRequest, options: RequestOptions = {}): Promise<LoginResponse> {
    const body = authCodecs.loginRequest.encode(request);
    const json = await postGateway(this.transport, 'auth', 'login', body, {
      ...options,
      idempotent: request.otp === undefined || request.otp === '',
    });
    return decodeResponse('login', () => nonEmptyTokens('login', authCodecs.loginResponse.decode(json)));
  }

  /** A new access token for a refresh token. */
  async refreshAccessToken(refreshToken: string, options: RequestOptions = {}): Promise<RefreshResponse> {
    const body = authCodecs.refreshRequest.encode({ refreshToken });
    const json = await postGateway(this.transport, 'auth', 'refresh_access_token', body, { ...options, idempotent: true });
    return decodeResponse('refresh_access_token', () => nonEmptyTokens('refresh_access_token', authCodecs.refreshResponse.decode(json)));
  }

  /** Starts MFA enrolment: returns the otpauth URL and the secret it carries. */
  async enrollMfa(request: { username: string; password: string }, options: RequestOptions = {}): Promise<MfaEnrollment> {
    const body = authCodecs.enrollMfaRequest.encode(request);
    const json = await postGateway(this.transport, 'auth', 'enroll_mfa', body, { ...options, idempotent: false });
    return decodeResponse('enroll_mfa', () => {
      const { enrollmentUrl } = authCodecs.enrollMfaResponse.decode(json);
      return { enrollmentUrl, secret: secretFromEnrollmentUrl(enrollmentUrl) };
    });
  }

  /** Confirms enrolment with a code from the new secret; afterwards login needs `otp`. */
  async confirmMfa(request: { username: string; password: string; otp: string }, options: RequestOptions = {}): Promise<MfaConfirmation> {
    const body = authCodecs.confirmMfaRequest.encode(request);
    const json = await postGateway(this.transport, 'auth', 'confirm_mfa', body, { ...options, idempotent: false });
    return decodeResponse('confirm_mfa', () => parseWith(confirmSchema, json));
  }

  async changePassword(
    request: { username: string; oldPassword: string; newPassword: string },
    options: RequestOptions = {},
  ): Promise<void> {
    const body = authCodecs.changePasswordRequest.encode(request);
    await postGateway(this.transport, 'auth', 'change_password', body, { ...options, idempotent: false });
  }

  /** Revokes the tokens; `accessToken` also authorises the call (bare, in Authorization). */
  async logout(tokens: { accessToken: string; refreshToken: string }, options: RequestOptions = {}): Promise<void> {
    const body = authCodecs.logoutRequest.encode(tokens);
    await postGateway(this.transport, 'auth', 'logout', body, {
      ...options,
      idempotent: true,
      headers: { authorization: tokens.accessToken },
    });
  }
}

function nonEmptyTokens<T extends { accessToken: string }>(operation: string, response: T): T {
  if (response.accessToken === '') throw new Error(`${operation}: the response carries no accessToken`);
  return response;
}
