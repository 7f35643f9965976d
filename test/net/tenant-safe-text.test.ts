/** What a tenant is shown of a remote server's text (src/net/tenant-safe-text.ts). */
import { describe, expect, it } from 'vitest';
import { TENANT_TEXT_MAX, tenantSafeText } from '../../src/net/tenant-safe-text.js';

describe('text from a remote server, as a tenant sees it', () => {
  it.each([
    ['a platform error code and message', 'INVALID_FIELD: No such column \'Foo\' on entity \'Contact\'', 'INVALID_FIELD: No such column \'Foo\' on entity \'Contact\''],
    ['an HTML page', '<html><head><title>502</title></head><body><h1>Bad Gateway</h1><script>x()</script></body></html>', '502 Bad Gateway x()'],
    ['line breaks and tabs', 'first\r\nsecond\tthird', 'first second third'],
    ['control characters and ANSI escapes', 'a\u0000b\u001b[31mred\u007f', 'a b [31mred'],
    ['bidirectional overrides and zero-width characters', 'pay\u202eexe.txt\u200b', 'pay exe.txt'],
  ])('When it is %s, then it is one line of plain text', (_what, text, shown) =>
    expect(tenantSafeText(text)).toBe(shown));

  it('When it is long, then it is cut to 200 characters with an ellipsis', () => {
    const shown = tenantSafeText('x'.repeat(5_000));
    expect(shown).toHaveLength(TENANT_TEXT_MAX);
    expect(shown.endsWith('…')).toBe(true);
  });
});
