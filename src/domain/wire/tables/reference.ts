/**
 * Field tables of reference data and accounts: instrument (scales from its own fields), positions,
 * balances, who-am-i, users and funding accounts.
 */
import { INSTRUMENT_STATES } from '../../enums.ts';
import type { AvailablePosition, Balance, FundingAccount, Position, User, WhoAmI } from '../../types/account.ts';
import type { Instrument } from '../../types/reference.ts';
import { message, renamed } from '../codec.ts';
import { avgPrice, date, dec, enumOf, list, price, qty, scaleField, str, time } from '../fields.ts';

export const instrumentCodec = message<Instrument>({
  name: 'Instrument',
  scope: { self: { price: 'priceScale', qty: 'fractionalQtyScale' } },
  fields: {
    symbol: str(),
    description: str(),
    state: enumOf(INSTRUMENT_STATES, 'InstrumentState'),
    priceScale: scaleField(),
    fractionalQtyScale: renamed(scaleField(), { snake: 'fractional_quantity_scale' }),
    tickSize: dec(true),
    lowPriceLimit: price(),
    highPriceLimit: price(),
    minimumTradeQty: qty(),
    currency: str(),
    eventId: str(),
    eventDescription: str(),
    tradingStartTime: time(),
    expirationTime: time(),
    lastTradeDate: date(),
    settlementTime: time(),
  },
});

export const positionCodec = message<Position>({
  name: 'Position',
  scope: { symbolAt: ['symbol'] },
  fields: {
    account: str(),
    symbol: str(),
    netPosition: qty(),
    openBuyQty: qty(),
    openSellQty: qty(),
    avgEntryPx: avgPrice(),
    costBasis: dec(),
    realizedPnl: dec(),
    updateTime: time(),
  },
});

export const availablePositionCodec = message<AvailablePosition>({
  name: 'AvailablePosition',
  scope: { symbolAt: ['symbol'] },
  fields: { account: str(), symbol: str(), qty: qty() },
});

export const balanceCodec = message<Balance>({
  name: 'Balance',
  fields: {
    account: str(),
    currency: str(),
    balance: dec(),
    buyingPower: dec(),
    openOrders: dec(),
    unsettledFunds: dec(),
    availableToWithdraw: dec(),
    updateTime: time(),
  },
});

export const whoAmICodec = message<WhoAmI>({
  name: 'WhoAmI',
  fields: {
    participantId: str(),
    firmId: str(),
    userId: str(),
    username: str(),
    accounts: list(str()),
    scopes: list(str()),
  },
});

export const userCodec = message<User>({
  name: 'User',
  fields: {
    id: str(),
    externalId: str(),
    username: str(),
    email: str(),
    firstName: str(),
    lastName: str(),
    accounts: list(str()),
    kycStatus: str(),
    createTime: time(),
  },
});

export const fundingAccountCodec = message<FundingAccount>({
  name: 'FundingAccount',
  fields: {
    id: str(),
    account: str(),
    type: str(),
    displayName: str(),
    status: str(),
    currency: str(),
    last4: str(),
    createTime: time(),
  },
});
