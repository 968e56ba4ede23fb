/**
 * JSON with object keys sorted at every level (arrays keep their order) and Decimals as strings, so
 * the same result always gives the same bytes.
 */

function sortValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const withJson = value as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === 'function') return sortValue(withJson.toJSON());
  if (Array.isArray(value)) return value.map(sortValue);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = sortValue(v);
  }
  return out;
}

export function stableStringify(value: unknown, indent = 2): string {
  return `${JSON.stringify(sortValue(value), null, indent)}\n`;
}
