// The risk config section: defaults, exact decimals, strict keys, band width, the rate cap, loader messages.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseConfigText, ConfigError } from '../../../src/config/index.ts';
import { parseRiskConfig, riskSection, RiskErrorCode, RiskManager } from '../../../src/engine/risk/index.ts';
import { fixedClock } from './helpers.ts';

const schema = () => z.strictObject({ risk: riskSection() });

function problems(yaml: string): string[] {
  try {
    parseConfigText(yaml, schema);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems.map((p) => `${p.path}: ${p.message}`);
  }
  throw new Error('expected a ConfigError');
}

describe('risk config', () => {
  it('disables every limit when absent and throttles at 50 messages per second', () => {
    expect(parseRiskConfig({})).toEqual({
      maxMessagesPerSecond: 50,
      maxQueuedMessages: 500,
      maxQueueAgeMs: 2000,
      onDailyLoss: 'reducing',
      onFeedStale: 'reducing',
      onStrategyError: 'halted',
      selfMatch: { action: 'refuse', scope: 'bot' },
    });
    expect(parseConfigText('{}', schema).risk.maxMessagesPerSecond).toBe(50);
  });

  it('reads decimals exactly from YAML', () => {
    const config = parseConfigText(
      'risk:\n  maxOrderNotional: 0.1\n  maxPosition: "12345678901234567890.5"\n  priceBand: { percent: 2.5 }\n',
      schema,
    );
    expect(config.risk.maxOrderNotional?.toString()).toBe('0.1');
    expect(config.risk.maxPosition?.toFixed()).toBe('12345678901234567890.5');
    expect(config.risk.priceBand).toMatchObject({ reference: 'mid', whenNoReference: 'refuse' });
    expect(config.risk.priceBand?.percent?.toString()).toBe('2.5');
  });

  it('rejects unknown keys with a suggestion', () => {
    expect(problems('risk:\n  maxPositon: "1"\n')).toEqual(['risk.maxPositon: unknown key; did you mean "maxPosition"?']);
  });

  it('needs exactly one band width', () => {
    expect(problems('risk:\n  priceBand: { absolute: "0.05", ticks: 3 }\n')).toEqual([
      'risk.priceBand: give exactly one band width: absolute ("0.05"), ticks (10) or percent ("10"); got 2',
    ]);
    expect(problems('risk:\n  priceBand: { reference: last }\n')).toHaveLength(1);
  });

  it("caps the message rate at the venue's 100 per second", () => {
    expect(problems('risk:\n  maxMessagesPerSecond: 150\n')).toEqual([
      "risk.maxMessagesPerSecond: must be at most the venue's 100 messages/s per firm",
    ]);
  });

  it('validates the send queue: a whole number of requests (0 turns the queue off) and an age in ms up to a minute', () => {
    expect(parseConfigText('risk:\n  maxQueuedMessages: 0\n  maxQueueAgeMs: 500\n', schema).risk).toMatchObject({
      maxQueuedMessages: 0,
      maxQueueAgeMs: 500,
    });
    expect(problems('risk:\n  maxQueuedMessages: -1\n  maxQueueAgeMs: 0\n')).toEqual([
      'risk.maxQueueAgeMs: expected a number of milliseconds such as 2000',
      'risk.maxQueuedMessages: must be 0 (refuse instead of queueing) or more',
    ]);
    expect(problems('risk:\n  maxQueuedMessages: 2.5\n  maxQueueAgeMs: 120000\n')).toEqual([
      'risk.maxQueueAgeMs: must be at most 60000 ms: an order that waits longer is decided on stale data',
      'risk.maxQueuedMessages: expected a whole number of requests >= 0 such as 500 (0: refuse instead of queueing)',
    ]);
  });

  it('rejects negative limits and unknown actions', () => {
    expect(problems('risk:\n  maxOrderQty: "-1"\n  selfMatch: { action: ignore }\n  onFeedStale: active\n')).toEqual([
      'risk.maxOrderQty: must be greater than 0, got -1',
      'risk.onFeedStale: expected one of reducing, halted, got "active"',
      'risk.selfMatch.action: expected one of refuse, cancelResting, off, got "ignore"',
    ]);
  });

  it('parseRiskConfig throws RISK_CONFIG_INVALID listing every problem', () => {
    expect(() => parseRiskConfig({ maxOpenOrders: 0, priceBand: {} })).toThrow(
      expect.objectContaining({ code: RiskErrorCode.CONFIG_INVALID, kind: 'config' }),
    );
  });

  it('the manager refuses a hand-built config with a rate above the venue limit', () => {
    const config = { ...parseRiskConfig({}), maxMessagesPerSecond: 500 };
    expect(() => new RiskManager(config, { clock: fixedClock() })).toThrow(expect.objectContaining({ code: RiskErrorCode.CONFIG_INVALID }));
  });
});
