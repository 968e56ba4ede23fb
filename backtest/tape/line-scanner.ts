/**
 * The fast path for a history file's format (history/format.ts): CompactScanner for compact lines,
 * TradeScanner for the exchange's full records in the header's family naming. Light to import (no domain
 * codecs, no decimal.js), so the tape worker starts with it and loads the full parser only when a line needs it.
 */
import type { HistoryFormat, HistorySource } from '../history/format.ts';
import { CompactScanner, type ScaleDigits } from './compact-scan.ts';
import { TradeScanner, type LineScanner } from './trade-scan.ts';

export interface ScannerSpec {
  readonly format: HistoryFormat;
  readonly source: HistorySource;
  /** The header's symbols, in order (TradeFields.sym indexes them). */
  readonly symbols: readonly string[];
  /** Decimal places of each symbol's prices and quantities (compact lines carry decimals). */
  readonly digits: readonly ScaleDigits[];
}

export function createLineScanner(spec: ScannerSpec): LineScanner {
  return spec.format === 'compact' ? new CompactScanner(spec.symbols, spec.digits) : new TradeScanner(spec.source, spec.symbols);
}
