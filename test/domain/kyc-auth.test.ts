/**
 * KYC notifications pass any status through, decisions are checked; token payloads keep their naming.
 */
import { describe, expect, test } from 'vitest';
import { authCodecs, isKnownKycDecision, isKnownKycStatus } from '../../src/domain/index.ts';

describe('KYC notification', () => {
  test('an unknown status passes through unchanged', () => {
    const body = { externalId: 'u-1', decision: '', status: 'PENDING_MANUAL_REVIEW', subStatus: 'x', extra: true };
    const notification = authCodecs.kycNotification.decode(body);
    expect(notification.status).toBe('PENDING_MANUAL_REVIEW');
    expect(isKnownKycStatus(notification.status)).toBe(false);
    expect(authCodecs.kycNotification.encode(notification)).toEqual({
      externalId: 'u-1',
      status: 'PENDING_MANUAL_REVIEW',
      subStatus: 'x',
    });
  });

  test('known statuses and an empty decision decode as-is; missing fields are empty', () => {
    const notification = authCodecs.kycNotification.decode({ externalId: 'u-1', status: 'OPEN' });
    expect(notification).toEqual({
      externalId: 'u-1',
      decision: '',
      status: 'OPEN',
      subStatus: '',
      participantId: '',
      account: '',
    });
    expect(isKnownKycStatus(notification.status)).toBe(true);
  });

  test('an unknown decision is kept as-is, like an unknown status; a non-string one is refused, naming the field', () => {
    const notification = authCodecs.kycNotification.decode({ externalId: 'u-1', status: 'CLOSED', decision: 'MAYBE' });
    expect(notification.decision).toBe('MAYBE');
    expect(isKnownKycDecision(notification.decision)).toBe(false);
    expect(isKnownKycDecision('ACCEPT')).toBe(true);
    expect(() => authCodecs.kycNotification.decode({ decision: 1 })).toThrowError(/^decision: expected a string/);
  });
});

describe('auth payloads', () => {
  test('the gateway login response decodes its camelCase date-times', () => {
    const login = authCodecs.loginResponse.decode({
      accessToken: 'a',
      refreshToken: 'r',
      accessExpirationTime: '2024-05-01T12:15:00Z',
    });
    expect(login.accessExpirationTime).toBe(Date.UTC(2024, 4, 1, 12, 15));
    expect(login.refreshIssueTime).toBeUndefined();
  });

  test('the OAuth token request is written snake_case', () => {
    expect(
      authCodecs.tokenRequest.encode({
        clientId: 'c',
        clientAssertionType: 't',
        clientAssertion: 'j',
        audience: 'https://api',
        grantType: 'client_credentials',
      }),
    ).toEqual({
      client_id: 'c',
      client_assertion_type: 't',
      client_assertion: 'j',
      audience: 'https://api',
      grant_type: 'client_credentials',
    });
  });
});
