/**
 * Syntax of the addresses a sign-up form should take: the RFC 5322 §3.4.1 addr-spec restricted to a dot-atom local
 * part (RFC 5322 §3.2.3) and a host-name domain (RFC 5321 §4.1.2 Domain, RFC 1035 §2.3.1 labels), with the length
 * limits of RFC 5321 §4.5.3.1 and the 254-octet path limit of RFC 3696 (errata 1690).
 *
 * Rejected on purpose, although RFC 5322 allows them: quoted local parts, comments and folding white space (CFWS),
 * address literals (`[192.0.2.1]`), the obsolete forms of RFC 5322 §4.4, and any control character. These are valid
 * on paper, but no mainstream provider issues such addresses and they are the usual carriers of injection attempts.
 *
 * Internationalized domains are converted to A-labels with UTS-46 (`url.domainToASCII`); the local part stays ASCII
 * (SMTPUTF8 local parts, RFC 6531, are refused: most receiving systems cannot take them).
 */
import { domainToASCII } from 'node:url';

export interface ParsedEmailAddress {
  ok: true;
  /** The local part as given (local parts are case-sensitive, RFC 5321 §2.4). */
  localPart: string;
  /** The domain in lower-case A-labels. */
  domain: string;
  /** `localPart@domain`: what goes on the SMTP wire and into caches. */
  normalized: string;
}

export interface EmailSyntaxError {
  ok: false;
  /** Finer code after `syntax:` in the answer's `reason`, e.g. `local_too_long`. */
  detail: EmailSyntaxDetail;
}

export type EmailSyntaxDetail =
  | 'empty'
  | 'control_character'
  | 'missing_at'
  | 'local_empty'
  | 'local_too_long'
  | 'local_dot'
  | 'local_invalid_character'
  | 'local_non_ascii'
  | 'quoted_local_part'
  | 'comment'
  | 'address_literal'
  | 'domain_empty'
  | 'domain_invalid'
  | 'domain_dot'
  | 'domain_too_long'
  | 'label_too_long'
  | 'label_hyphen'
  | 'numeric_tld'
  | 'single_label_domain'
  | 'too_long';

/** RFC 5321 §4.5.3.1.1 */
const MAX_LOCAL_OCTETS = 64;
/** RFC 1035 §2.3.4 (255 octets on the wire = 253 characters in text form) */
const MAX_DOMAIN_OCTETS = 253;
/** RFC 1035 §2.3.4 */
const MAX_LABEL_OCTETS = 63;
/** RFC 5321 §4.5.3.1.3 path of 256 octets minus the angle brackets (RFC 3696 errata 1690) */
const MAX_ADDRESS_OCTETS = 254;

/** RFC 5322 §3.2.3 atext: ALPHA / DIGIT and these specials. */
const ATEXT = /^[A-Za-z0-9!#$%&'*+\/=?^_`{|}~-]+$/;
/** RFC 1035 §2.3.1 LDH label, lower case (the domain has been lower-cased or converted before the test). */
const LDH_LABEL = /^[a-z0-9-]+$/;
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
const NON_ASCII = /[^\u0000-\u007f]/;

/**
 * Top-level domains that published mail records at their apex (RFC 7085 §3, "Top-Level Domains That Are Already
 * Dotless"), so `user@tld` can be a working address there. Any other single-label domain is refused: ICANN forbids
 * dotless names in new gTLDs (SSAC 053), and `user@localhost`-style names are what an SSRF attempt looks like.
 */
export const DOTLESS_MAIL_TLDS: ReadonlySet<string> = new Set([
  'ai', 'as', 'bi', 'cf', 'cm', 'dk', 'gg', 'gp', 'gt', 'hr', 'io', 'je', 'kh', 'km', 'lk', 'mq', 'mr', 'mu', 'ne',
  'ph', 'pn', 'pr', 'sh', 'tk', 'tt', 'ua', 'uz', 'va', 'ws',
]);

const fail = (detail: EmailSyntaxDetail): EmailSyntaxError => ({ ok: false, detail });

export function parseEmailAddress(input: string): ParsedEmailAddress | EmailSyntaxError {
  if (input.length === 0) return fail('empty');
  if (CONTROL_CHARACTER.test(input)) return fail('control_character');

  const at = input.lastIndexOf('@');
  if (at < 0) return fail('missing_at');
  const localPart = input.slice(0, at);
  const rawDomain = input.slice(at + 1);

  const localProblem = checkLocalPart(localPart);
  if (localProblem) return fail(localProblem);

  const domain = toAsciiDomain(rawDomain);
  if (typeof domain !== 'string') return domain;

  const normalized = `${localPart}@${domain}`;
  if (Buffer.byteLength(normalized) > MAX_ADDRESS_OCTETS) return fail('too_long');
  return { ok: true, localPart, domain, normalized };
}

function checkLocalPart(local: string): EmailSyntaxDetail | null {
  if (local.length === 0) return 'local_empty';
  if (local.includes('"')) return 'quoted_local_part';
  if (local.includes('(') || local.includes(')')) return 'comment';
  if (NON_ASCII.test(local)) return 'local_non_ascii';
  if (local.length > MAX_LOCAL_OCTETS) return 'local_too_long';
  const atoms = local.split('.');
  if (atoms.some((atom) => atom.length === 0)) return 'local_dot';
  if (!atoms.every((atom) => ATEXT.test(atom))) return 'local_invalid_character';
  return null;
}

function toAsciiDomain(raw: string): string | EmailSyntaxError {
  if (raw.length === 0) return fail('domain_empty');
  if (raw.startsWith('[')) return fail('address_literal');
  if (raw.includes('(') || raw.includes(')')) return fail('comment');

  // Plain ASCII domains are checked as written: url.domainToASCII would also percent-decode and read numbers as IPv4.
  let ascii: string;
  if (NON_ASCII.test(raw)) {
    ascii = domainToASCII(raw);
    if (ascii === '') return fail(endsInNumber(raw) ? 'numeric_tld' : 'domain_invalid');
  } else {
    ascii = raw.toLowerCase();
  }

  const labels = ascii.split('.');
  if (labels.some((label) => label.length === 0)) return fail('domain_dot');
  for (const label of labels) {
    if (!LDH_LABEL.test(label)) return fail('domain_invalid');
    if (label.length > MAX_LABEL_OCTETS) return fail('label_too_long');
    if (label.startsWith('-') || label.endsWith('-')) return fail('label_hyphen');
  }
  // An A-label must decode (RFC 5890 §2.3.2.1); UTS-46 refuses the ones that do not.
  if (labels.some((label) => label.startsWith('xn--')) && domainToASCII(ascii) === '') return fail('domain_invalid');
  if (ascii.length > MAX_DOMAIN_OCTETS) return fail('domain_too_long');
  // RFC 3696 §2: a top-level domain is never all-numeric (that is how 192.0.2.1 is told from a name).
  if (/^[0-9]+$/.test(labels[labels.length - 1])) return fail('numeric_tld');
  if (labels.length === 1 && !DOTLESS_MAIL_TLDS.has(ascii)) return fail('single_label_domain');
  return ascii;
}

function endsInNumber(domain: string): boolean {
  const labels = domain.split(/[.\u3002\uff0e\uff61]/);
  return /^[0-9]+$/.test(labels[labels.length - 1] ?? '');
}
