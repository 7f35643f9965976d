/**
 * The reference lists behind `disposable`, `free` and `role`, loaded once into memory from npm packages (their
 * choice and licences: README.md beside this file). The checks take the lists as an argument, so tests can hand
 * them small lists of their own.
 */
import { createRequire } from 'node:module';
import { domainToASCII } from 'node:url';

export interface EmailLists {
  /** Domains whose mailboxes are throw-away; a subdomain of a listed domain is disposable too. */
  disposableDomains: ReadonlySet<string>;
  /** Domains only whose subdomains are disposable (`*.domain`), e.g. dynamic-DNS zones. */
  disposableParentDomains: ReadonlySet<string>;
  /** Free mailbox providers (gmail.com, gmx.de, …). */
  freeDomains: ReadonlySet<string>;
  /** Local parts that name a function rather than a person (RFC 2142 mailbox names and common ones). */
  roleLocalParts: ReadonlySet<string>;
  /**
   * The top-level domains of the IANA root zone, in A-labels (`com`, `xn--p1ai`): a domain under any other has no
   * mail server. Absent: not checked.
   */
  delegatedTlds?: ReadonlySet<string>;
}

/**
 * RFC 2606 §3 / RFC 6761 §6.5 reserve these for documentation: they are no one's mailbox provider, whatever a
 * provider list says.
 */
const RESERVED_EXAMPLE_DOMAINS = ['example.com', 'example.net', 'example.org'] as const;

/**
 * Entries of the role list that are people's names (a first name, a surname): `per@`, `alexa@` and `gardner@` are
 * someone's mailbox, not a team's.
 */
const PERSONAL_NAMES_IN_ROLE_LIST: ReadonlySet<string> = new Set(['alexa', 'per', 'gardner']);

/** Reads the packages' data files. Call once at start-up (about 130,000 domains, some 50 ms). */
export function loadEmailLists(): EmailLists {
  const require = createRequire(import.meta.url);
  const mailchecker = require('mailchecker') as { blacklist(): Set<string> };
  const disposableExact = require('disposable-email-domains') as string[];
  const disposableWildcard = require('disposable-email-domains/wildcard.json') as string[];
  const freeProviders = require('email-providers/all.json') as string[];
  const roleLocalParts = require('role-based-email-addresses') as string[];
  const tlds = require('tlds') as string[];

  const reserved = new Set<string>(RESERVED_EXAMPLE_DOMAINS);
  return {
    disposableDomains: new Set([...mailchecker.blacklist(), ...disposableExact].map((d) => d.toLowerCase())),
    disposableParentDomains: new Set(disposableWildcard.map((d) => d.toLowerCase())),
    freeDomains: new Set(freeProviders.map((d) => d.toLowerCase()).filter((d) => !reserved.has(d))),
    roleLocalParts: new Set(roleLocalParts.map((l) => l.toLowerCase()).filter((l) => !PERSONAL_NAMES_IN_ROLE_LIST.has(l))),
    delegatedTlds: new Set(tlds.map((tld) => domainToASCII(tld) || tld.toLowerCase())),
  };
}

/** False when the domain's TLD is not in the root zone (`gmail.con`, `b.c`); true when the list is absent. */
export function hasDelegatedTld(domain: string, lists: EmailLists): boolean {
  return !lists.delegatedTlds || lists.delegatedTlds.has(domain.slice(domain.lastIndexOf('.') + 1));
}

/** `a.b.example.com` -> `a.b.example.com`, `b.example.com`, `example.com`, `com`. */
function* selfAndParents(domain: string): Generator<string> {
  let rest = domain;
  for (;;) {
    yield rest;
    const dot = rest.indexOf('.');
    if (dot < 0) return;
    rest = rest.slice(dot + 1);
  }
}

export function isDisposableDomain(domain: string, lists: EmailLists): boolean {
  let first = true;
  for (const candidate of selfAndParents(domain)) {
    if (lists.disposableDomains.has(candidate)) return true;
    if (!first && lists.disposableParentDomains.has(candidate)) return true;
    first = false;
  }
  return false;
}

export function isFreeProviderDomain(domain: string, lists: EmailLists): boolean {
  return lists.freeDomains.has(domain);
}

/** The sub-address (`+tag`, RFC 5233 §1) does not change whose mailbox it is. */
export function isRoleLocalPart(localPart: string, lists: EmailLists): boolean {
  const base = localPart.toLowerCase().split('+')[0];
  return lists.roleLocalParts.has(base);
}
