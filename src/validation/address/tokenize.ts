/**
 * One-line or multi-line address text -> upper-case word tokens, the way Pub 28 wants them (section 212: no
 * punctuation except the hyphen in numbers and the slash of fractions). A token remembers whether a separator
 * (comma, new line, semicolon) came before it: separators are strong hints of where the city starts.
 */

export interface Token {
  /** Upper-case word without punctuation (hyphens and fraction slashes kept). */
  w: string;
  /** A comma, new line or semicolon stood before this token. */
  sep: boolean;
}

/** Input longer than this is cut: nothing postal is that long, and parse time must stay bounded. */
export const MAX_INPUT_CHARS = 400;
export const MAX_TOKENS = 40;

/** Highway words written with a hyphen before the route number (I-95, US-1, SR-690). */
const HYPHENATED_ROUTE = /^(I|IH|US|SR|CR|FM|SH|HWY|RT|RTE|ROUTE|HIGHWAY)-([A-Z0-9]+)$/;

/** Rural route written without a space (RR2, HC1). */
const GLUED_RURAL_ROUTE = /^(RR|HC|HCR|RFD)(\d{1,3})$/;

/** True when the text has letters of a script other than Latin (Cyrillic, Han, Arabic, …). */
export function hasNonLatinLetters(text: string): boolean {
  return /[^\p{Script=Latin}\P{L}]/u.test(text);
}

export function tokenizeAddress(input: string): Token[] {
  let s = input.slice(0, MAX_INPUT_CHARS).normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toUpperCase();
  s = s
    .replace(/\([^)]*\)?/g, ' ')
    // Initials written with full stops keep together: P.O. -> PO, U.S.A. -> USA, S.W. -> SW.
    .replace(/\b([A-Z])\.\s?([A-Z])\.(?:\s?([A-Z])\.)?/g, '$1$2$3')
    .replace(/[\r\n;|]+/g, ',')
    .replace(/#/g, ' # ')
    .replace(/['’`]/g, '')
    .replace(/&/g, ' & ')
    .replace(/[^A-Z0-9,#/\- &]+/g, ' ');
  const tokens: Token[] = [];
  for (const group of s.split(',')) {
    let sep = tokens.length > 0;
    for (let word of group.split(' ')) {
      word = word.replace(/^[-/]+|[-/]+$/g, '');
      if (!word) continue;
      const route = HYPHENATED_ROUTE.exec(word) ?? GLUED_RURAL_ROUTE.exec(word);
      if (route) {
        tokens.push({ w: route[1], sep }, { w: route[2], sep: false });
      } else {
        tokens.push({ w: word, sep });
      }
      sep = false;
      if (tokens.length >= MAX_TOKENS) return tokens;
    }
  }
  return tokens;
}
