// Lenient parsing of family A error bodies: every shape the client may meet keeps its code and message,
// and echoed secrets are masked.
import { describe, expect, it } from 'vitest';
import { parseFamilyAErrorBody } from '../../../src/exchange/familya/index.ts';

describe('parseFamilyAErrorBody', () => {
  it.each([
    [
      'Google style with an ErrorInfo reason',
      {
        error: {
          code: 'PERMISSION_DENIED',
          status: 403,
          message: 'needs read:orders',
          details: [{ '@type': 'x', reason: 'SCOPE_MISSING' }],
        },
      },
      { code: 'PERMISSION_DENIED', message: 'needs read:orders', reason: 'SCOPE_MISSING' },
    ],
    [
      'Google style with a numeric code and a status name',
      { error: { code: 3, status: 'INVALID_ARGUMENT', message: 'bad' } },
      { code: 3, status: 'INVALID_ARGUMENT', message: 'bad' },
    ],
    ['grpc-gateway style', { code: 5, message: 'NOT_FOUND', details: 'no order' }, { code: 5, message: 'NOT_FOUND', details: 'no order' }],
    ['OAuth style', { error: 'invalid_client', error_description: 'unknown key' }, { code: 'invalid_client', message: 'unknown key' }],
    ['plain text', 'upstream exploded', { code: undefined, message: 'upstream exploded' }],
    ['unknown JSON', { oops: true }, { code: undefined, message: '{"oops":true}' }],
  ])('%s', (_name, body, expected) => {
    expect(parseFamilyAErrorBody(body)).toMatchObject(expected);
  });

  it('returns undefined for no body', () => {
    expect(parseFamilyAErrorBody(null)).toBeUndefined();
    expect(parseFamilyAErrorBody('')).toBeUndefined();
  });

  it('masks a token echoed in the message', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
    const parsed = parseFamilyAErrorBody({ error: { code: 'UNAUTHENTICATED', message: `token ${jwt} expired` } });
    expect(parsed?.message).not.toContain(jwt);
  });

  it('truncates a huge text body', () => {
    expect(parseFamilyAErrorBody('x'.repeat(10_000))?.message.length).toBeLessThan(400);
  });
});
