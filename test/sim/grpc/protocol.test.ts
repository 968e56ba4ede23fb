/**
 * The protocol's invariants: the package name is written in one place (proto/exchange.proto, the only .proto
 * file; the loader reads it from there, every service and method is found under it, and no source file
 * repeats it), a file without a package or with stray services is refused naming the problem, proto enums
 * are identical to the domain's (names and numbers), and the codecs round-trip through real protobuf bytes,
 * Struct fields and optional presence included.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as enums from '../../../src/domain/enums.ts';
import { Decimal, instrumentScales } from '../../../src/domain/index.ts';
import type { Execution, Order, Trade } from '../../../src/domain/index.ts';
import {
  PROTO_DIR,
  PROTO_FILE,
  SERVICES,
  exchangeProtocol,
  grpcCodecs,
  loadExchangeProtocol,
  methodRef,
} from '../../../src/exchange/grpc/protocol/index.ts';
import type { ServiceName } from '../../../src/exchange/grpc/protocol/index.ts';

const scales = instrumentScales(100, 1);

function protoEnums(): Map<string, string[]> {
  const text = readFileSync(join(PROTO_DIR, PROTO_FILE), 'utf8');
  const out = new Map<string, string[]>();
  for (const match of text.matchAll(/enum (\w+) \{([^}]*)\}/g)) {
    const values: string[] = [];
    for (const line of (match[2] ?? '').matchAll(/(\w+) = (\d+);/g)) values[Number(line[2])] = line[1] ?? '';
    out.set(match[1] ?? '', values);
  }
  return out;
}

function order(overrides: Partial<Order> = {}): Order {
  const zero = new Decimal(0);
  return {
    id: 'O-1',
    clordId: 'c-1',
    crossId: '',
    hostCrossId: '',
    parentOrderId: '',
    lastTradeId: '',
    account: 'firms/demo/accounts/a',
    clientAccountId: '',
    clientParticipantId: '',
    participant: 'firms/demo/users/alice',
    submittingParticipant: '',
    symbol: 'SYM',
    symbolSubType: '',
    collateralMemo: '',
    side: 'SIDE_SELL',
    type: 'ORDER_TYPE_LIMIT',
    timeInForce: 'TIME_IN_FORCE_DAY',
    state: 'ORDER_STATE_PARTIALLY_FILLED',
    triggerMethod: 'CONDITION_TRIGGER_METHOD_UNDEFINED',
    manualOrderIndicator: 'MANUAL_ORDER_INDICATOR_UNDEFINED',
    orderCapacity: 'ORDER_CAPACITY_AGENCY',
    selfMatchPreventionInstruction: 'SELF_MATCH_PREVENTION_INSTRUCTION_UNDEFINED',
    orderQty: new Decimal(10),
    cashOrderQty: zero,
    minQty: zero,
    cumQty: new Decimal(4),
    leavesQty: new Decimal(6),
    price: new Decimal('0.55'),
    stopPrice: zero,
    avgPx: new Decimal('0.55'),
    priorityWeight: '',
    commissionsBasisPoints: new Decimal('1.5'),
    makerCommissionsBasisPoints: zero,
    commissionNotionalTotalCollected: zero,
    priceToQuantityFilled: [{ px: new Decimal('0.55'), qty: new Decimal(4) }],
    allOrNone: false,
    bestLimit: false,
    blockTradeIndicator: false,
    ignorePriceValidityChecks: false,
    immediatelyExecutableLimit: false,
    participateDontInitiate: true,
    strictLimit: false,
    createTime: Date.UTC(2026, 0, 5),
    insertTime: Date.UTC(2026, 0, 5),
    goodTillTime: undefined,
    lastTransactTime: Date.UTC(2026, 0, 5, 1),
    riskCheckTime: undefined,
    transactionBookedTime: undefined,
    context: {
      anyContext: { '@type': 'type.example/x', n: 1, nested: { list: [true, null, 'x'] } },
      fixContext: undefined,
      serviceName: 'svc',
      validationContexts: [{ '@type': 'v' }],
    },
    ...overrides,
  };
}

function execution(id: string): Execution {
  const zero = new Decimal(0);
  return {
    id,
    tradeId: 'T-1',
    traceId: '',
    text: '',
    order: order(),
    lastPx: new Decimal('0.55'),
    lastShares: new Decimal(4),
    commissionNotionalCollected: zero,
    commissionSpreadPx: zero,
    aggressor: false,
    type: 'EXECUTION_TYPE_PARTIAL_FILL',
    orderRejectReason: 'ORD_REJECT_REASON_EXCHANGE_OPTION',
    unsolicitedCancelReason: 'UNSOLICITED_CXL_REASON_UNDEFINED',
    transactTime: Date.UTC(2026, 0, 5, 1),
    transactTradeDate: { year: 2026, month: 1, day: 5 },
    legPrices: [],
  };
}

describe('gRPC protocol', () => {
  it('the package is declared once, in proto/exchange.proto, and every service and method is found under it', () => {
    const files = readdirSync(PROTO_DIR).filter((f) => f.endsWith('.proto'));
    expect(files).toEqual([PROTO_FILE]);
    const declarations = [...readFileSync(join(PROTO_DIR, PROTO_FILE), 'utf8').matchAll(/^\s*package\s+([\w.]+)\s*;/gm)].map((m) => m[1]);
    const protocol = exchangeProtocol();
    expect(declarations).toEqual([protocol.packageName]);
    for (const [service, methods] of Object.entries(SERVICES)) {
      expect(Object.keys(protocol.service(service as ServiceName)).sort()).toEqual(Object.keys(methods).sort());
      for (const [method, kind] of Object.entries(methods)) {
        const wire = protocol.method(methodRef(service as ServiceName, method as never));
        expect(wire.path).toBe(`/${protocol.packageName}.${service}/${method}`);
        expect(protocol.qualifiedService(service as ServiceName)).toBe(`${protocol.packageName}.${service}`);
        expect(wire.kind).toBe(kind);
      }
    }
  });

  it('no source file repeats the package name (it is read from the .proto file)', () => {
    const { packageName } = exchangeProtocol();
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const offenders: string[] = [];
    for (const dir of ['src', 'bench']) {
      for (const file of readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })) {
        if (file.endsWith('.ts') && readFileSync(join(root, dir, file), 'utf8').includes(packageName)) offenders.push(`${dir}/${file}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('refuses a protocol file without a package, or with a service in another package, naming the problem', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tradebot-proto-'));
    try {
      const text = readFileSync(join(PROTO_DIR, PROTO_FILE), 'utf8');
      writeFileSync(join(dir, 'no-package.proto'), text.replace(/^package .*;$/m, ''));
      expect(() => loadExchangeProtocol(dir, 'no-package.proto')).toThrow(
        expect.objectContaining({ code: 'GRPC_PROTO_INVALID', message: expect.stringMatching(/must declare its package/) }),
      );
      writeFileSync(
        join(dir, 'other.proto'),
        'syntax = "proto3";\npackage elsewhere.v2;\nmessage Ping {}\nservice RefDataAPI { rpc ListInstruments(Ping) returns (Ping); }\n',
      );
      writeFileSync(
        join(dir, 'two-packages.proto'),
        text.replace('import "google/protobuf/struct.proto";', 'import "google/protobuf/struct.proto";\nimport "other.proto";'),
      );
      expect(() => loadExchangeProtocol(dir, 'two-packages.proto')).toThrow(
        /service RefDataAPI is declared more than once.*; elsewhere\.v2\.Ping is outside the package/,
      );
      writeFileSync(join(dir, 'missing.proto'), text.replace(/rpc SearchTrades\(.*\n/, ''));
      expect(() => loadExchangeProtocol(dir, 'missing.proto')).toThrow(/method ReportAPI\.SearchTrades is missing/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('proto enums have the domain enums names and numbers', () => {
    const table: Record<string, readonly string[]> = {
      Side: enums.SIDES,
      OrderType: enums.ORDER_TYPES,
      TimeInForce: enums.TIME_IN_FORCES,
      OrderState: enums.ORDER_STATES,
      ExecutionType: enums.EXECUTION_TYPES,
      OrdRejectReason: enums.ORD_REJECT_REASONS,
      UnsolicitedCxlReason: enums.UNSOLICITED_CXL_REASONS,
      CxlRejReason: enums.CXL_REJ_REASONS,
      ConditionTriggerMethod: enums.CONDITION_TRIGGER_METHODS,
      SelfMatchPreventionInstruction: enums.SELF_MATCH_PREVENTION_INSTRUCTIONS,
      OrderCapacity: enums.ORDER_CAPACITIES,
      ManualOrderIndicator: enums.MANUAL_ORDER_INDICATORS,
      TradeType: enums.TRADE_TYPES,
      TradeState: enums.TRADE_STATES,
      InstrumentState: enums.INSTRUMENT_STATES,
      CrossType: enums.CROSS_TYPES,
    };
    const proto = protoEnums();
    expect([...proto.keys()].sort()).toEqual(Object.keys(table).sort());
    for (const [name, values] of Object.entries(table)) expect(proto.get(name), name).toEqual([...values]);
  });

  it('round-trips a drop copy execution and a trade with Struct fields through protobuf bytes', () => {
    const dropCopy = exchangeProtocol().method(methodRef('DropCopyAPI', 'CreateDropCopySubscription'));
    const message = {
      kind: 'execution' as const,
      execution: execution('E-1'),
      resumeToken: 'ab.7',
      sessionId: 's',
      processedSentTime: Date.UTC(2026, 0, 5, 2),
    };
    const bytes = dropCopy.serializeResponse(grpcCodecs.dropCopyStream.encode(message, scales));
    expect(grpcCodecs.dropCopyStream.decode(dropCopy.deserializeResponse(bytes), scales)).toEqual(message);

    const capture = exchangeProtocol().method(methodRef('DropCopyAPI', 'CreateTradeCaptureReportSubscription'));
    const trade: Trade = {
      id: 'T-1',
      aggressor: execution('E-2'),
      passive: execution('E-3'),
      tradeType: 'TRADE_TYPE_REGULAR',
      state: 'TRADE_STATE_BUSTED',
      reportingCounterparty: 'SIDE_BUY',
      text: '',
      tradeLinkId: 'L',
      metadata: { desk: 'a', size: 2, flags: [1, 'b'] },
    };
    const tradeMessage = { kind: 'trade' as const, trade, resumeToken: 'ab.8', sessionId: 's', processedSentTime: undefined };
    const raw = capture.deserializeResponse(capture.serializeResponse(grpcCodecs.tradeCaptureStream.encode(tradeMessage, scales)));
    expect(grpcCodecs.tradeCaptureStream.decode(raw, scales)).toEqual(tradeMessage);
  });

  it('decoding reports a malformed message with the field path', () => {
    expect(() => grpcCodecs.marketDataStream.decode({ update: { symbol: 'SYM', bids: [{ px: 'x', qty: '1' }] } }, scales)).toThrow(
      /bids\[0\]\.px/,
    );
    expect(() => grpcCodecs.orderStream.decode('nope', scales)).toThrow(/message object/);
  });
});
