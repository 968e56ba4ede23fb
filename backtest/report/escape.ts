/**
 * Escaping for text and data inlined into a self-contained HTML page. `inlineJson` produces JSON that is
 * safe inside a `<script>` element: `<`, `>` and `&` become `\u003c`-style escapes (still valid JSON, same
 * value), so neither `</script>` nor `<!--` in a strategy name or a param can end the element early;
 * U+2028/U+2029 are escaped too. `inlineScript` guards a trusted library's source.
 */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for an HTML text node or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

const JSON_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/** JSON text for a `<script type="application/json">` element: parses back to the same value. */
export function inlineJson(value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined) throw new TypeError('inlineJson: value is not representable as JSON');
  return json.replace(/[<>&\u2028\u2029]/g, (c) => JSON_ESCAPES[c] ?? c);
}

/**
 * JavaScript source for an inline `<script>` element. `<\/script` means the same as `</script` in a JS
 * string, regex, template or comment, so that rewrite never changes what the code does; `<!--` has no
 * such safe rewrite in every context, so a source containing it is refused.
 */
export function inlineScript(source: string): string {
  if (source.includes('<!--')) throw new Error('inlineScript: source contains "<!--", which cannot be inlined safely');
  return source.replace(/<\/(script)/gi, '<\\/$1');
}
