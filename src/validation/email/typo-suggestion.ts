/**
 * "Did you mean …?" for mistyped domains: a misspelt top-level domain from a table of typing slips, then the
 * nearest well-known mailbox domain by optimal-string-alignment distance (Levenshtein plus adjacent transposition,
 * so gmial.com is one step from gmail.com).
 */

/** Top-level domains that do not exist but are one slip away from one that does. */
export const TLD_TYPOS: Readonly<Record<string, string>> = {
  con: 'com', cmo: 'com', ocm: 'com', comm: 'com', coom: 'com', vom: 'com', xom: 'com', cpm: 'com', cim: 'com',
  clm: 'com', ckm: 'com', comn: 'com', cmm: 'com', ccom: 'com', ner: 'net', nwt: 'net', nte: 'net', bet: 'net',
  nett: 'net', ogr: 'org', orh: 'org', rog: 'org', orgg: 'org', ed: 'de', eud: 'edu',
};

/** The consumer mailbox domains people mistype most: the providers with the most users (their own domains). */
export const WELL_KNOWN_MAILBOX_DOMAINS = [
  'gmail.com', 'googlemail.com', 'yahoo.com', 'hotmail.com', 'outlook.com', 'live.com', 'msn.com', 'icloud.com',
  'me.com', 'mac.com', 'aol.com', 'aim.com', 'protonmail.com', 'proton.me', 'gmx.com', 'gmx.net', 'gmx.de',
  'web.de', 'mail.com', 'zoho.com', 'yandex.com', 'yandex.ru', 'mail.ru', 'qq.com', '163.com', '126.com',
  'comcast.net', 'verizon.net', 'att.net', 'sbcglobal.net', 'bellsouth.net', 'cox.net', 'charter.net',
  'earthlink.net', 'yahoo.co.uk', 'yahoo.fr', 'yahoo.de', 'hotmail.co.uk', 'hotmail.fr', 'live.co.uk',
  'btinternet.com', 'orange.fr', 'free.fr', 'laposte.net', 'libero.it', 't-online.de', 'shaw.ca', 'rogers.com',
  'sympatico.ca', 'bigpond.com', 'optusnet.com.au', 'rediffmail.com', 'fastmail.com', 'hey.com', 'ymail.com',
  'rocketmail.com',
] as const;

export interface TypoSuggestionData {
  tldTypos: Readonly<Record<string, string>>;
  wellKnownDomains: readonly string[];
  /** Domains that are right as they are (free providers): never "corrected". */
  knownDomains: ReadonlySet<string>;
}

/**
 * A well-known mailbox name under a top-level domain one slip from its own `.com` or `.net` (`gmail.co`, `gmail.om`,
 * `hotmail.cm`, `yahoo.om`): the free-provider list holds such typo-squatting domains, which are to be corrected, not
 * trusted. Only the TLD counts: names one letter apart are often real providers of their own (`email.com`,
 * `y7mail.com`), and so are regional TLDs (`hotmail.gr`).
 */
export function isTypoOfWellKnownDomain(domain: string, wellKnown: readonly string[]): boolean {
  if (wellKnown.includes(domain)) return false;
  const dot = domain.lastIndexOf('.');
  const label = domain.slice(0, dot);
  const tld = domain.slice(dot + 1);
  for (const candidate of wellKnown) {
    const candidateTld = candidate.slice(candidate.lastIndexOf('.') + 1);
    if ((candidateTld !== 'com' && candidateTld !== 'net') || candidate.slice(0, -candidateTld.length - 1) !== label) continue;
    if (optimalStringAlignmentDistance(tld, candidateTld, 1) <= 1) return true;
  }
  return false;
}

/** Answers per domain, per data set: a form sees the same few domains over and over. Bounded. */
const answered = new WeakMap<TypoSuggestionData, Map<string, string | null>>();
const ANSWERS_KEPT = 10_000;

/** The corrected domain, or null when the domain looks right. `domain` is lower-case A-labels. */
export function suggestDomain(domain: string, data: TypoSuggestionData): string | null {
  let answers = answered.get(data);
  if (!answers) answered.set(data, (answers = new Map()));
  const known = answers.get(domain);
  if (known !== undefined) return known;
  const answer = computeSuggestion(domain, data);
  if (answers.size >= ANSWERS_KEPT) answers.clear();
  answers.set(domain, answer);
  return answer;
}

function computeSuggestion(domain: string, data: TypoSuggestionData): string | null {
  if (data.knownDomains.has(domain) || data.wellKnownDomains.includes(domain)) return null;

  const dot = domain.lastIndexOf('.');
  const tld = domain.slice(dot + 1);
  const fixedTld = dot > 0 ? data.tldTypos[tld] : undefined;
  const candidate = fixedTld ? `${domain.slice(0, dot)}.${fixedTld}` : domain;

  const nearest = nearestWellKnownDomain(candidate, data.wellKnownDomains);
  if (nearest) return nearest;
  return candidate === domain ? null : candidate;
}

function nearestWellKnownDomain(domain: string, wellKnown: readonly string[]): string | null {
  if (wellKnown.includes(domain)) return domain;
  // One slip in a short name, two in a long one; more is a different name.
  const maxDistance = domain.length >= 10 ? 2 : 1;
  let best: string | null = null;
  let bestDistance = maxDistance + 1;
  for (const candidate of wellKnown) {
    if (Math.abs(candidate.length - domain.length) > maxDistance) continue;
    const distance = optimalStringAlignmentDistance(domain, candidate, maxDistance);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Levenshtein distance plus adjacent transposition (optimal string alignment), on three rolling rows. Stops early
 * and answers `bound + 1` once every alignment costs more than `bound`.
 */
export function optimalStringAlignmentDistance(a: string, b: string, bound = Infinity): number {
  let beforePrevious = new Int32Array(b.length + 1);
  let previous = Int32Array.from({ length: b.length + 1 }, (_, j) => j);
  let current = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMinimum = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, beforePrevious[j - 2] + 1);
      current[j] = d;
      if (d < rowMinimum) rowMinimum = d;
    }
    if (rowMinimum > bound) return bound + 1;
    [beforePrevious, previous, current] = [previous, current, beforePrevious];
  }
  return previous[b.length];
}

const MAX_REPAIRABLE_LENGTH = 512;
/** `Name <address>`: the address between the last angle brackets. */
const NAME_ADDR = /<([^<>\s]+@[^<>\s]+)>\s*$/;
/** `mailto:` before the address, a `?subject=…` after it. */
const MAILTO = /^mailto:([^?]+)(?:\?.*)?$/i;
/** Punctuation pasted around an address: quotes, brackets, a trailing comma, semicolon or full stop. */
const WRAPPING = /^["'(<[\s]+|["')>\]\s,;.]+$/g;

/**
 * The address a syntax failure most likely meant, or null: the address of a `Name <address>` or `mailto:` form, the
 * address without the punctuation pasted around it (`john@gmail.com.`), typing slips around the `@` and in the domain
 * (`john@@gmail.com`, `john.@gmail.com`, `john@gmail,com`, `john@gmail..com`, `john@gmail .com`), or a single-label
 * domain that is a well-known mailbox domain's name (`john@gmail` -> john@gmail.com). `parses` tells whether a
 * candidate is a well-formed address.
 */
export function repairedAddress(input: string, wellKnown: readonly string[], parses: (candidate: string) => boolean): string | null {
  // Nothing longer can become an address of 254 characters or fewer by losing a name and some punctuation.
  if (input.length > MAX_REPAIRABLE_LENGTH) return null;
  let text = input.trim();
  text = NAME_ADDR.exec(text)?.[1] ?? text;
  text = MAILTO.exec(text)?.[1] ?? text;
  text = text.replace(WRAPPING, '').replace(/\.*@+\.*/g, '@');
  let at = text.lastIndexOf('@');
  if (at > 0) text = `${text.slice(0, at)}@${text.slice(at + 1).replace(/\s+/g, '').replace(/,/g, '.').replace(/\.{2,}/g, '.')}`;
  at = text.lastIndexOf('@');
  const domain = at > 0 ? text.slice(at + 1).toLowerCase() : '';
  if (domain && !domain.includes('.')) {
    const named = wellKnown.find((d) => d.slice(0, d.indexOf('.')) === domain);
    if (named) text = `${text.slice(0, at)}@${named}`;
  }
  return text !== input.trim() && parses(text) ? text : null;
}

