/**
 * The simulator's small HTTP router and its error mapping: literal and `:param` routes, NOT_FOUND for an
 * unknown path, UNIMPLEMENTED for a known path with another method, and the gRPC status -> HTTP status
 * table behind the gateway's `{code, message, details}` error body.
 */
import { describe, expect, it } from 'vitest';
import { Router, type RequestContext } from '../../../src/sim/http/router.ts';
import { GRPC_STATUS, SimHttpError, gatewayErrorBody, type GrpcStatusName } from '../../../src/sim/http/errors.ts';

const reply = (name: string) => () => ({ body: { name } });

function route(router: Router, method: string, path: string): { name: unknown; params: Record<string, string> } {
  const { handler, params } = router.match(method, path);
  const result = handler({ params } as RequestContext) as { body: { name: unknown } };
  return { name: result.body.name, params };
}

function failure(run: () => unknown): SimHttpError {
  try {
    run();
  } catch (error) {
    if (error instanceof SimHttpError) return error;
    throw error;
  }
  throw new Error('expected a SimHttpError');
}

describe('Router', () => {
  const router = new Router()
    .post('/api/v1beta1/insert_order', reply('insert'))
    .get('/v1/orderbook/:symbol', reply('book'))
    .get('/v1/orderbook/:symbol/bbo', reply('bbo'))
    .add('put', '/v1/things/:id', reply('put-thing'));

  it('matches literal paths by method, case-insensitively for the method', () => {
    expect(route(router, 'POST', '/api/v1beta1/insert_order').name).toBe('insert');
    expect(route(router, 'post', '/api/v1beta1/insert_order').name).toBe('insert');
    expect(route(router, 'PUT', '/v1/things/7').name).toBe('put-thing');
  });

  it('extracts and URL-decodes :params, and tells apart paths of different lengths', () => {
    expect(route(router, 'GET', '/v1/orderbook/RAIN%3ANYC')).toEqual({ name: 'book', params: { symbol: 'RAIN:NYC' } });
    expect(route(router, 'GET', '/v1/orderbook/RAIN/bbo')).toEqual({ name: 'bbo', params: { symbol: 'RAIN' } });
  });

  it('ignores empty segments (a trailing or doubled slash)', () => {
    expect(route(router, 'POST', '/api/v1beta1/insert_order/').name).toBe('insert');
    expect(route(router, 'POST', '//api/v1beta1//insert_order').name).toBe('insert');
  });

  it('answers an unknown path with NOT_FOUND (404) and a known path with another method with UNIMPLEMENTED (501)', () => {
    const missing = failure(() => router.match('POST', '/api/v1beta1/nothing'));
    expect([missing.status, missing.httpStatus, missing.grpcCode]).toEqual(['NOT_FOUND', 404, 5]);
    const method = failure(() => router.match('GET', '/api/v1beta1/insert_order'));
    expect([method.status, method.httpStatus, method.grpcCode]).toEqual(['UNIMPLEMENTED', 501, 12]);
    expect(method.details).toContain('GET');
  });

  it('treats a malformed percent-encoding in a param as no match', () => {
    expect(failure(() => router.match('GET', '/v1/orderbook/%E0%A4%A')).status).toBe('NOT_FOUND');
  });
});

describe('gateway error mapping', () => {
  it.each<[GrpcStatusName, number]>([
    ['INVALID_ARGUMENT', 400],
    ['FAILED_PRECONDITION', 400],
    ['OUT_OF_RANGE', 400],
    ['UNAUTHENTICATED', 401],
    ['PERMISSION_DENIED', 403],
    ['NOT_FOUND', 404],
    ['ALREADY_EXISTS', 409],
    ['ABORTED', 409],
    ['RESOURCE_EXHAUSTED', 429],
    ['CANCELLED', 499],
    ['INTERNAL', 500],
    ['UNKNOWN', 500],
    ['UNIMPLEMENTED', 501],
    ['UNAVAILABLE', 503],
    ['DEADLINE_EXCEEDED', 504],
  ])('%s is HTTP %i with body {code, message: name, details}', (status, http) => {
    const error = new SimHttpError(status, 'why it failed', { 'retry-after': '1' });
    expect(error.httpStatus).toBe(http);
    expect(gatewayErrorBody(error)).toEqual({ code: GRPC_STATUS[status], message: status, details: 'why it failed' });
    expect(error.headers).toEqual({ 'retry-after': '1' });
  });

  it('uses the gRPC status numbers', () => {
    expect([
      GRPC_STATUS.INVALID_ARGUMENT,
      GRPC_STATUS.PERMISSION_DENIED,
      GRPC_STATUS.RESOURCE_EXHAUSTED,
      GRPC_STATUS.FAILED_PRECONDITION,
      GRPC_STATUS.UNAUTHENTICATED,
    ]).toEqual([3, 7, 8, 9, 16]);
  });
});
