#!/usr/bin/env bash
# Regenerates backtest/data/sample.jsonl through `tradebot history fetch` itself: the embedded exchange of
# sample-sim.yaml runs its market activity over the window in virtual time (seconds of wall time), then the
# trades are fetched page by page through the gateway client. Deterministic: the same file every time.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=backtest/data/sample.jsonl
npx tsx src/cli/main.ts history fetch \
  --config backtest/data/sample-sim.yaml \
  --symbol RAIN-NYC-2026-12-01 --symbol SNOW-CHI-2026-12-01 --symbol FED-CUT-2026-12 \
  --from 2026-11-30T14:00:00Z --to 2026-11-30T14:45:00Z \
  --page-size 500 --pause-ms 0 --out "$out" --force
rm -f "$out.state.json"
ls -l "$out"
