import { describe, expect, it } from 'vitest';
import {
  hasDelegatedTld, isDisposableDomain, isFreeProviderDomain, isRoleLocalPart, loadEmailLists, type EmailLists,
} from '../../src/validation/email/email-lists.js';
import { parseEmailAddress } from '../../src/validation/email/syntax.js';
import {
  isTypoOfWellKnownDomain, repairedAddress, suggestDomain, TLD_TYPOS, WELL_KNOWN_MAILBOX_DOMAINS,
} from '../../src/validation/email/typo-suggestion.js';

const small: EmailLists = {
  disposableDomains: new Set(['trash.test']),
  disposableParentDomains: new Set(['dyn.test']),
  freeDomains: new Set(['free.test']),
  roleLocalParts: new Set(['info', 'sales']),
};

const packaged = loadEmailLists();

describe('e-mail lists', () => {
  it.each([
    ['trash.test', true], ['a.b.trash.test', true], ['x.dyn.test', true], ['dyn.test', false], ['nottrash.test', false],
  ])('When the domain is %s, then disposable is %s', (domain, expected) => {
    expect(isDisposableDomain(domain, small)).toBe(expected);
  });

  it.each([['info', true], ['Sales+eu', true], ['john', false]])('When the local part is %s, then role is %s', (local, expected) => {
    expect(isRoleLocalPart(local, small)).toBe(expected);
  });

  it.each([
    ['gmail.com', true], ['example.xn--p1ai', true], ['ai', true], ['gmail.con', false], ['b.c', false], ['mail.test', false],
  ])('When the domain is %s, then its TLD is delegated: %s', (domain, expected) => {
    expect(hasDelegatedTld(domain, packaged)).toBe(expected);
  });

  it('When the lists carry no TLD list, then every TLD passes', () => expect(hasDelegatedTld('gmail.con', small)).toBe(true));

  it('When the packaged lists are loaded, then they know the well-known cases', () => {
    const lists = loadEmailLists();
    expect(isDisposableDomain('mailinator.com', lists)).toBe(true);
    expect(isDisposableDomain('sub.guerrillamail.com', lists)).toBe(true);
    expect(isDisposableDomain('gmail.com', lists)).toBe(false);
    expect(isFreeProviderDomain('gmail.com', lists)).toBe(true);
    expect(isFreeProviderDomain('example.com', lists)).toBe(false);
    expect(isRoleLocalPart('admin', lists)).toBe(true);
    expect(isRoleLocalPart('postmaster', lists)).toBe(true);
  });

  it.each([['per'], ['alexa'], ['gardner']])('When the role list holds a person\'s name (%s), then it is no role', (local) => {
    expect(isRoleLocalPart(local, loadEmailLists())).toBe(false);
  });
});

describe('typo suggestion', () => {
  const data = { tldTypos: TLD_TYPOS, wellKnownDomains: WELL_KNOWN_MAILBOX_DOMAINS, knownDomains: new Set(['gmx.de', 'mail.com']) };
  it.each([
    ['gmial.com', 'gmail.com'], ['gmail.con', 'gmail.com'], ['gmai.com', 'gmail.com'], ['hotmial.com', 'hotmail.com'],
    ['yaho.com', 'yahoo.com'], ['outlok.com', 'outlook.com'], ['acme.con', 'acme.com'], ['hotmaill.con', 'hotmail.com'],
    ['gmail.com', null], ['gmx.de', null], ['mail.com', null], ['acme.com', null], ['acme.co', null], ['example.org', null],
  ])('When the domain is %s, then the suggestion is %s', (domain, expected) => {
    expect(suggestDomain(domain, data)).toBe(expected);
  });

  it.each([
    ['gmail.co', true], ['gmail.om', true], ['hotmail.cm', true], ['yahoo.om', true],
    ['gmail.com', false], ['hotmail.gr', false], ['email.com', false], ['y7mail.com', false], ['gmx.at', false],
  ])('When the provider list holds %s, then it is a typo of a well-known domain: %s', (domain, expected) => {
    expect(isTypoOfWellKnownDomain(domain, WELL_KNOWN_MAILBOX_DOMAINS)).toBe(expected);
  });
});

describe('the address a syntax failure meant', () => {
  const repaired = (input: string) => repairedAddress(input, WELL_KNOWN_MAILBOX_DOMAINS, (c) => parseEmailAddress(c).ok);
  it.each([
    ['John Smith <john@acme.com>', 'john@acme.com'],
    ['"Smith, John" <john@acme.com>', 'john@acme.com'],
    ['mailto:john@acme.com?subject=Hello', 'john@acme.com'],
    ['MAILTO:john@acme.com', 'john@acme.com'],
    ['john@acme.com.', 'john@acme.com'],
    ['"john@acme.com",', 'john@acme.com'],
    ['(john@acme.com)', 'john@acme.com'],
    ['john@@acme.com', 'john@acme.com'],
    ['john.@acme.com', 'john@acme.com'],
    ['john@acme,com', 'john@acme.com'],
    ['john@acme..com', 'john@acme.com'],
    ['john@ acme.com', 'john@acme.com'],
    ['john@gmail', 'john@gmail.com'],
    ['john@hotmail', 'john@hotmail.com'],
  ])('When "%s" fails the syntax, then the address meant is %s', (input, expected) => {
    expect(repaired(input)).toBe(expected);
  });

  it.each([['not an address'], ['john@acme'], ['a@b@acme.com'], ['john@acme.com'], [`${'x'.repeat(600)}@acme.com`]])(
    'When "%s" holds no address to mend (or is well formed, or too long to be one), then there is none',
    (input) => {
      expect(repaired(input)).toBeNull();
    },
  );
});

