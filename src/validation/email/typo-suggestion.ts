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

/** The corrected domain, or null when the domain looks right. `domain` is lower-case A-labels. */
export function suggestDomain(domain: string, data: TypoSuggestionData): string | null {
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
    const distance = optimalStringAlignmentDistance(domain, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

export function optimalStringAlignmentDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}
