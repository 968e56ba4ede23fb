/** The run's time span for the report header: `2026-11-01 09:30:00 → 16:00:00 UTC (6h 30m)`. */

function utc(ms: number): { date: string; time: string } {
  const iso = new Date(ms).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 19) };
}

export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const d = Math.floor(total / 86400);
  const h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const parts = [d > 0 ? `${d}d` : '', h > 0 ? `${h}h` : '', m > 0 ? `${m}m` : '', s > 0 && d === 0 ? `${s}s` : ''].filter((p) => p !== '');
  return parts.length === 0 ? '0s' : parts.join(' ');
}

export function formatPeriod(span: { from: number; to: number } | undefined): string {
  if (span === undefined) return '';
  const a = utc(span.from);
  const b = utc(span.to);
  const end = a.date === b.date ? b.time : `${b.date} ${b.time}`;
  return `${a.date} ${a.time} → ${end} UTC (${formatDuration(span.to - span.from)})`;
}
