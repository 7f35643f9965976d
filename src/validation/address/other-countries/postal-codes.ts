/**
 * Postal codes abroad: the forms at the end of a text that name their country (British postcodes, Eircodes, hyphenated
 * codes), the code found in the text and written as its post writes it.
 */
import { joinedGroups } from './text-forms.js';

/** Countries that are one city, whose name is written as the city before the postal code, by the names written so. */
const CITY_STATE_NAMES: Readonly<Record<string, readonly string[]>> = {
  SG: ['SINGAPORE'], MC: ['MONACO'], SM: ['SAN MARINO'], VA: ['VATICAN', 'VATICAN CITY'], GI: ['GIBRALTAR'], LU: ['LUXEMBOURG'],
};
export const CITY_STATES: ReadonlySet<string> = new Set(Object.keys(CITY_STATE_NAMES));
/** One of those names, then one word (the postal code) at the end: looked for before any country lookup. */
export const CITY_STATE_BEFORE_CODE = new RegExp(`(?:${Object.values(CITY_STATE_NAMES).flat().join('|')})[\\s,]+[A-Z0-9-]+[\\s.]*$`, 'i');

export interface PostalCodeAt {
  code: string;
  group: number;
  /** Its words' span in the group's words, end exclusive. */
  start: number;
  end: number;
}

/** A British postcode ending the text, after a space or comma (Royal Mail's format: outward code, inward code). */
/** A postal code with a hyphen ending the text, after a word: Japan's 123-4567, Brazil's 12345-678, Portugal's 1234-567. */
export const HYPHENATED_POSTAL_CODE_AT_END = /(?<![A-Za-z])(?!(?:APT|APARTMENT|UNIT|STE|SUITE|RM|ROOM|BLDG|LOT|SPC|SPACE|TRLR|NO|DEPT)\b)[A-Za-z][A-Za-z.]*[\s,]+(\d{3,5}-\d{3,4})$/i;
export const HYPHENATED_POSTAL_CODES: readonly (readonly [RegExp, string])[] = [[/^\d{3}-\d{4}$/, 'JP'], [/^\d{5}-\d{3}$/, 'BR'], [/^\d{4}-\d{3}$/, 'PT']];
/** A last group (after a comma, semicolon or line break) of a Polish or Portuguese postal code and a name: group 1 the code. */
export const HYPHENATED_CODE_BEFORE_CITY = /[,;\n]\s*(\d{2}-\d{3}|\d{4}-\d{3})\s+[^\d,;\n]*[A-Za-z\u00c0-\u024f]{2}[^\d,;\n]*$/;
export const EIRCODE_AT_END = /[\s,](?:[AC-FHKNPRTV-Y]\d{2}|D6W) ?(?=[0-9AC-FHKNPRTV-Y]{4}$)(?=.*[AC-FHKNPRTV-Y])(?=.*\d)[0-9AC-FHKNPRTV-Y]{4}$/i;
export const ENDS_WITH_ZIP_PLUS_4 = /(?:^|[^\d-])\d{5}-\d{4}[\s.]*$/;
export const CROWN_DEPENDENCY_BY_POSTCODE: Readonly<Record<string, string>> = { JE: 'JE', GY: 'GG', IM: 'IM' };
export const BRITISH_POSTCODE_AT_END = /[\s,](?:GIR ?0AA|[A-PR-UWYZ](?:\d[A-HJKPSTUW\d]?|[A-HK-Y]\d[ABEHMNPRVWXY\d]?) ?\d[ABD-HJLNP-UW-Z]{2})[\s.]*$/i;

/**
 * How the post writes its postal code where a separator belongs and was left out or changed (`SW1A2AA` -> `SW1A 2AA`,
 * `1012AB` -> `1012 AB`, `01310200` -> `01310-200`): country -> the code without separators, and how it is written.
 */
const POSTAL_CODE_WRITING: Readonly<Record<string, readonly [RegExp, string]>> = (() => {
  const britishOutwardInward = [/^([A-Z]{1,2}\d[A-Z\d]?)(\d[A-Z]{2})$/, '$1 $2'] as const;
  const threeTwoSpaced = [/^(\d{3})(\d{2})$/, '$1 $2'] as const;
  return {
    GB: britishOutwardInward, GG: britishOutwardInward, JE: britishOutwardInward, IM: britishOutwardInward,
    NL: [/^(\d{4})([A-Z]{2})$/, '$1 $2'],
    IE: [/^([AC-FHKNPRTV-Y]\d{2}|D6W)([0-9AC-FHKNPRTV-Y]{4})$/, '$1 $2'],
    BR: [/^(\d{5})(\d{3})$/, '$1-$2'],
    JP: [/^(\d{3})(\d{4})$/, '$1-$2'],
    PL: [/^(\d{2})(\d{3})$/, '$1-$2'],
    PT: [/^(\d{4})(\d{3})$/, '$1-$2'],
    SE: threeTwoSpaced, CZ: threeTwoSpaced, SK: threeTwoSpaced, GR: threeTwoSpaced,
  };
})();

/** The postal code as the post writes it (POSTAL_CODE_WRITING), or as given where no rule applies. */
export function postalCodeAsWritten(country: string, code: string): string {
  const rule = POSTAL_CODE_WRITING[country];
  const bare = rule ? code.toUpperCase().replace(/[\s-]/g, '') : '';
  return rule && rule[0].test(bare) ? bare.replace(rule[0], rule[1]) : code;
}

/** The postal code in `groups` rewritten as the post writes it, `postal` updated to match. */
export function writePostalCodeAsThePostDoes(groups: string[][], postal: PostalCodeAt, country: string): void {
  const written = postalCodeAsWritten(country, postal.code);
  if (written === postal.code) return;
  const parts = written.split(' ');
  joinedGroups.delete(groups[postal.group]);
  groups[postal.group].splice(postal.start, postal.end - postal.start, ...parts);
  postal.end = postal.start + parts.length;
  postal.code = written;
}

/** Postal code: one word or two adjacent words (UK `EC1Y 8SY`) matching the country's pattern, the last one written. */
export function findPostalCode(groups: string[][], pattern: RegExp, country: string): PostalCodeAt | null {
  // Written with the post's separator left out or changed (`00624` for Poland's 00-624) it is still the postal code.
  const fits = (text: string) => /\d/.test(text) && (pattern.test(text) || pattern.test(postalCodeAsWritten(country, text)));
  for (let g = groups.length - 1; g >= 0; g--) {
    const ws = groups[g];
    // Every postal code holds a figure: words without one are passed over unread (a noise of letters is long).
    const figured = ws.map((w) => /\d/.test(w));
    for (let i = ws.length - 1; i >= 0; i--) {
      if (!figured[i] && !(i > 0 && figured[i - 1])) continue;
      if (i > 0) {
        const two = `${ws[i - 1]} ${ws[i]}`;
        if (fits(two)) return { code: two, group: g, start: i - 1, end: i + 1 };
      }
      if (fits(ws[i])) return { code: ws[i], group: g, start: i, end: i + 1 };
    }
  }
  return null;
}
