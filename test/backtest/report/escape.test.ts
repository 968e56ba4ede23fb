// Inlined text and data cannot break out of their element: escaped HTML, JSON that round-trips, guarded scripts.
import { describe, expect, it } from 'vitest';
import { escapeHtml, inlineJson, inlineScript } from '../../../backtest/report/escape.ts';
import { renderReport } from '../../../backtest/report/write-report.ts';
import { fixtureResult, HOSTILE_PARAM } from './fixture.ts';

describe('escapeHtml', () => {
  it('escapes the five HTML specials', () => {
    expect(escapeHtml(`<a href="x">Tom & Jerry's</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;');
  });
});

describe('inlineJson', () => {
  it('leaves no "<", ">" or "&" and parses back to the same value', () => {
    const value = { s: '</script><!-- & -->', line: 'a\u2028b\u2029c', n: [1, '0.55'] };
    const text = inlineJson(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('refuses a value JSON cannot represent', () => {
    expect(() => inlineJson(undefined)).toThrow(TypeError);
  });
});

describe('inlineScript', () => {
  it('rewrites "</script" without changing what a string means', () => {
    const guarded = inlineScript('var s = "</script>"; var t = "</SCRIPT>";');
    expect(guarded).not.toMatch(/<\/script/i);
    expect(new Function(`${guarded}; return s + t;`)()).toBe('</script></SCRIPT>');
  });

  it('refuses "<!--"', () => {
    expect(() => inlineScript('var s = "<!--";')).toThrow(/<!--/);
  });
});

describe('renderReport', () => {
  it('closes exactly three script elements even with a hostile param, and inlines nothing remote', () => {
    const html = renderReport(fixtureResult({ points: 20 }));
    expect(html.match(/<\/script/gi)).toHaveLength(3);
    expect(html).not.toContain(HOSTILE_PARAM);
    expect(html).toContain(escapeHtml(HOSTILE_PARAM));
    expect(html).not.toMatch(/<(link|img|iframe)\b/i);
    expect(html).not.toMatch(/<script[^>]*\bsrc=/i);
    expect(html).toContain('window.LightweightCharts');
  });
});
