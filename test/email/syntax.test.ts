import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseEmailAddress } from '../../src/validation/email/syntax.js';

const ISEMAIL_TESTS = fileURLToPath(new URL('../fixtures/email/isemail-tests.xml', import.meta.url));

interface IsemailCase { id: string; address: string; category: string; diagnosis: string }

/** The XML stores control characters as U+2400 + code (file notes, point 1) and escapes markup as entities. */
function decodeIsemailText(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#([0-9]+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[\u2400-\u241f]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x2400));
}

function readIsemailCases(): IsemailCase[] {
  const xml = readFileSync(ISEMAIL_TESTS, 'utf8');
  return [...xml.matchAll(/<test id="(\d+)">([\s\S]*?)<\/test>/g)].map(([, id, body]) => ({
    id,
    address: decodeIsemailText(/<address>([\s\S]*?)<\/address>/.exec(body)?.[1] ?? ''),
    category: /<category>(.*?)<\/category>/.exec(body)![1],
    diagnosis: /<diagnosis>(.*?)<\/diagnosis>/.exec(body)![1],
  }));
}

const ACCEPTED_CATEGORIES = new Set(['ISEMAIL_VALID_CATEGORY', 'ISEMAIL_DNSWARN']);

describe('e-mail syntax against the isemail test set', () => {
  const cases = readIsemailCases();

  it('When the isemail test file is read, then it holds all 164 cases', () => {
    expect(cases).toHaveLength(164);
  });

  it.each(cases.map((c) => [c.id, c.category, c.diagnosis, c.address] as const))(
    'When isemail case %s (%s, %s) is checked, then the verdict matches the category',
    (_id, category, _diagnosis, address) => {
      expect(parseEmailAddress(address).ok).toBe(ACCEPTED_CATEGORIES.has(category));
    },
  );
});

describe('e-mail syntax details', () => {
  it.each([
    ['', 'empty'],
    ['plainaddress', 'missing_at'],
    ['@example.com', 'local_empty'],
    [`${'a'.repeat(65)}@example.com`, 'local_too_long'],
    ['.a@example.com', 'local_dot'],
    ['a..b@example.com', 'local_dot'],
    ['a b@example.com', 'local_invalid_character'],
    ['a@b@example.com', 'local_invalid_character'],
    ['josé@example.com', 'local_non_ascii'],
    ['"a b"@example.com', 'quoted_local_part'],
    ['a(comment)@example.com', 'comment'],
    ['a@[192.0.2.1]', 'address_literal'],
    ['a@', 'domain_empty'],
    ['a@example..com', 'domain_dot'],
    ['a@example.com.', 'domain_dot'],
    ['a@exa_mple.com', 'domain_invalid'],
    ['a@a%41.com', 'domain_invalid'],
    ['a@xn--zz.com', 'domain_invalid'],
    [`a@${'b'.repeat(64)}.com`, 'label_too_long'],
    ['a@-example.com', 'label_hyphen'],
    ['a@example.123', 'numeric_tld'],
    ['a@192.0.2.1', 'numeric_tld'],
    ['a@localhost', 'single_label_domain'],
    [`a@${Array(60).fill('abcd').join('.')}.com`, 'domain_too_long'],
    [`${'a'.repeat(64)}@${Array(4).fill('b'.repeat(61)).join('.')}.com`, 'too_long'],
    ['a@example.com\r\nRCPT TO:<victim@example.org>', 'control_character'],
    ['a\u0000@example.com', 'control_character'],
    ['a\u0085@example.com', 'control_character'],
    ['a@bü cher.de', 'domain_invalid'],
    ['a@ab\u200dc.de', 'domain_invalid'],
    ['a@ü', 'single_label_domain'],
    [`a@${'ü'.repeat(60)}.de`, 'label_too_long'],
    ['a@münchen.de.', 'domain_dot'],
  ])('When the address is %j, then it is rejected as %s', (input, detail) => {
    expect(parseEmailAddress(input)).toEqual({ ok: false, detail });
  });

  it.each([
    ['User.Name+tag@Example.COM', 'User.Name+tag@example.com'],
    ['a@bücher.de', 'a@xn--bcher-kva.de'],
    ['a@ＥＸＡＭＰＬＥ．ｃｏｍ', 'a@example.com'],
    ['a@☃.net', 'a@xn--n3h.net'],
    ['a@xn--bcher-kva.de', 'a@xn--bcher-kva.de'],
    ['x@io', 'x@io'],
    ['a@例え.テスト', 'a@xn--r8jz45g.xn--zckzah'],
    ['a@BÜCHER.de', 'a@xn--bcher-kva.de'],
    ['a@💩.la', 'a@xn--ls8h.la'],
    ['a@straße.de', 'a@xn--strae-oqa.de'],
  ])('When the address is %j, then it is accepted and normalized to %j', (input, normalized) => {
    expect(parseEmailAddress(input)).toMatchObject({ ok: true, normalized });
  });
});
