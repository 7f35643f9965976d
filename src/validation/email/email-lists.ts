/**
 * The reference lists behind `disposable`, `free` and `role`, loaded once into memory from npm packages (their
 * choice and licences: README.md beside this file). The checks take the lists as an argument, so tests can hand
 * them small lists of their own.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { domainToASCII } from 'node:url';

/** What the checks ask of a list: whether it holds a name (a Set, or a SortedNames for the long ones). */
export interface NameSet {
  has(name: string): boolean;
}

export interface EmailLists {
  /** Domains whose mailboxes are throw-away; a subdomain of a listed domain is disposable too. */
  disposableDomains: NameSet;
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

/**
 * A long list of names (the 150,000 disposable domains) as one sorted string and where each name starts in it, looked
 * up by binary search: some 20 bytes a name where a Set of strings takes about 70 (bench/RESULTS.md, resting memory).
 * Names with characters beyond ASCII, a handful, stay in a Set, so that the string keeps one byte a character.
 */
export class SortedNames implements NameSet {
  private readonly text: string;
  /** Where each name starts in `text`, and one past the end: name i is text[starts[i], starts[i + 1] - 1). */
  private readonly starts: Uint32Array;
  private readonly wide = new Set<string>();

  constructor(names: Iterable<string>) {
    const ascii: string[] = [];
    for (const name of new Set(names)) {
      if (NOT_ASCII.test(name)) this.wide.add(name);
      else ascii.push(name);
    }
    ascii.sort();
    this.starts = new Uint32Array(ascii.length + 1);
    let at = 0;
    for (let i = 0; i < ascii.length; i++) {
      this.starts[i] = at;
      at += ascii[i].length + 1;
    }
    this.starts[ascii.length] = at;
    // A separator after each name, so that the starts alone say where a name ends (one flat string: join, no `+`).
    this.text = [...ascii, ''].join('\n');
  }

  get size(): number {
    return this.starts.length - 1 + this.wide.size;
  }

  has(name: string): boolean {
    let low = 0;
    let high = this.starts.length - 2;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const order = this.compareWith(name, middle);
      if (order === 0) return true;
      if (order < 0) high = middle - 1;
      else low = middle + 1;
    }
    return this.wide.has(name);
  }

  /** The order of `name` against name i, by UTF-16 code units as Array.prototype.sort put them: < 0, 0 or > 0. */
  private compareWith(name: string, i: number): number {
    const start = this.starts[i];
    const length = this.starts[i + 1] - 1 - start;
    const common = Math.min(name.length, length);
    for (let k = 0; k < common; k++) {
      const d = name.charCodeAt(k) - this.text.charCodeAt(start + k);
      if (d !== 0) return d;
    }
    return name.length - length;
  }
}
const NOT_ASCII = /[^\x00-\x7f]/;

/**
 * mailchecker's list, its module let go: out of the module cache, and loaded by a require of its own, whose parent
 * module (which lists the modules it loaded) goes with it.
 */
function listOfMailchecker(): string[] {
  const require = createRequire(import.meta.url);
  const file = require.resolve('mailchecker');
  const domains = [...(require(file) as { blacklist(): Set<string> }).blacklist()];
  delete require.cache[file];
  return domains;
}

/**
 * Reads the packages' data files. Call once at start-up (about 150,000 domains, some 100 ms). The JSON files are read,
 * not required, and mailchecker's module is let go once its list is copied: the module cache would keep a second copy
 * of every list for the life of the process.
 */
export function loadEmailLists(): EmailLists {
  const require = createRequire(import.meta.url);
  const json = (name: string) => JSON.parse(fs.readFileSync(require.resolve(name), 'utf8')) as string[];
  const mailcheckerDomains = listOfMailchecker();
  const disposableExact = json('disposable-email-domains');
  const disposableWildcard = json('disposable-email-domains/wildcard.json');
  const freeProviders = json('email-providers/all.json');
  const roleLocalParts = require('role-based-email-addresses') as string[];
  const tlds = json('tlds');

  const reserved = new Set<string>(RESERVED_EXAMPLE_DOMAINS);
  return {
    disposableDomains: new SortedNames([...mailcheckerDomains, ...disposableExact].map((d) => d.toLowerCase())),
    disposableParentDomains: new Set(disposableWildcard.map((d) => d.toLowerCase())),
    freeDomains: new Set(freeProviders.map((d) => d.toLowerCase()).filter((d) => !reserved.has(d))),
    roleLocalParts: new Set(roleLocalParts.map((l) => l.toLowerCase()).filter((l) => !PERSONAL_NAMES_IN_ROLE_LIST.has(l))),
    delegatedTlds: new Set(tlds.map((tld) => domainToASCII(tld) || tld.toLowerCase())),
  };
}

/**
 * Names no one's mailbox can be at, whatever DNS says (RFC 6761 §6 special-use names): the second-level example domains
 * (RFC 2606 §3), and the TLDs reserved for tests, documentation, invalid names and the local host (RFC 2606 §2, RFC 6761
 * §6.2-6.4), with every name under them.
 */
const SPECIAL_USE_TLDS: ReadonlySet<string> = new Set(['test', 'example', 'invalid', 'localhost']);

/** True for `example.com`, `mail.example.org`, `a.test`, `b.invalid`, `c.localhost` (SPECIAL_USE_TLDS, RESERVED_EXAMPLE_DOMAINS). */
export function isSpecialUseDomain(domain: string): boolean {
  const labels = domain.split('.');
  if (SPECIAL_USE_TLDS.has(labels[labels.length - 1])) return true;
  return labels.length >= 2 && (RESERVED_EXAMPLE_DOMAINS as readonly string[]).includes(labels.slice(-2).join('.'));
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
