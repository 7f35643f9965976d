/**
 * The input cleaned before it is read: HTML markup read as text, a form's field labels and placeholders (`N/A`) taken
 * out, telephone numbers and e-mail addresses after the postal code set aside, words of another script around a Latin
 * address set aside. Each says what it took, for the answer's footnotes.
 */
import { decodeHTML } from 'entities';
import { hasNonLatinLetters, MAX_INPUT_CHARS } from './tokenize.js';

/** Some letter or figure: text of punctuation alone is nothing to read. */
export const LETTER_OR_FIGURE = /[\p{L}\p{N}]/u;

/** An HTML tag or character reference (`<br>`, `&#44;`, `&amp;`): text copied from a web page or an HTML e-mail. */
const MARKUP = /<\/?[A-Za-z][^<>]*>|&(?:#\d{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/;
/** Tags that end a line (`<br>`, `</p>`, `<div>`, `<li>`, a table's cells), and any other tag. */
const LINE_BREAKING_TAG = /<\s*(?:br|\/?(?:p|div|li|tr|td|address))\b[^<>]*>/gi;
const OTHER_TAG = /<\/?[A-Za-z][^<>]*>/g;

/** The text with HTML markup read as plain text (line-breaking tags as line breaks, character references decoded). */
export function withoutMarkup(given: string): { text: string; markup: boolean } {
  if (given.length > MAX_INPUT_CHARS * 2 || (!given.includes('<') && !given.includes('&')) || !MARKUP.test(given)) return { text: given, markup: false };
  return { text: decodeHTML(given.replace(LINE_BREAKING_TAG, '\n').replace(OTHER_TAG, ' ')), markup: true };
}

/**
 * A form's field label with its colon, as text copied from a form or an e-mail holds them (`Address: …, City: …,
 * State: KY, Zip: 40219`; Canada's French `Ville :`, `Code postal :`): each a field separator. A unit's word before a
 * colon (`Apt: 5`) is no label: the colon goes with the other punctuation.
 */
const FIELD_LABEL =
  /(^|[\s,;|])(?:(?:SHIPPING |MAILING |STREET |HOME )?ADDRESS(?: LINE)?(?: ?[123])?|STREET|CITY|TOWN|STATE|PROVINCE|REGION|COUNTY|ZIP(?: ?CODE)?|POSTAL ?CODE|POST ?CODE|COUNTRY|ADRESSE|VILLE|CODE POSTAL|PAYS)[ \t]*:[ \t]*/gi;
const HAS_FIELD_LABEL = new RegExp(FIELD_LABEL.source, 'i');
/** A postal code's label without its colon, right before the code (`KY Zip Code 40219`, `Postal Code M5H 2N2`). */
const BARE_POSTAL_CODE_LABEL =
  /(^|[\s,;|])(?:ZIP(?: ?CODE)?|POSTAL ?CODE|POST ?CODE|CODE POSTAL)[ \t]+(?=\d{5}(?:-?\d{4})?\b|[A-Z]\d[A-Z] ?\d[A-Z]\d\b)/gi;
const HAS_BARE_POSTAL_CODE_LABEL = new RegExp(BARE_POSTAL_CODE_LABEL.source, 'i');

/** The text with its field labels made field separators, and the labels (null: none). */
export function withoutFieldLabels(given: string): { text: string; labels: string | null } {
  if (given.length > MAX_INPUT_CHARS) return { text: given, labels: null };
  const colon = given.includes(':') && HAS_FIELD_LABEL.test(given);
  const bare = /zip|post|code/i.test(given) && HAS_BARE_POSTAL_CODE_LABEL.test(given);
  if (!colon && !bare) return { text: given, labels: null };
  const found: string[] = [];
  const asSeparator = (m: string, before: string) => {
    found.push(m.slice(before.length).replace(/[\s:]+$/, '').replace(/\s+/g, ' ').toUpperCase());
    return `${before}, `;
  };
  let text = colon ? given.replace(FIELD_LABEL, asSeparator) : given;
  if (bare) text = text.replace(BARE_POSTAL_CODE_LABEL, asSeparator);
  return { text: text.replace(/^[\s,]+/, ''), labels: found.join(', ') };
}

/** A field that only says it is empty: `N/A`, `NULL`, `NONE`, `UNKNOWN`, `TBD`, dashes, dots, question marks. */
const PLACEHOLDER_FIELD = /(^|[,;\n|])[ \t]*(N\/?A|NULL|NONE|NIL|UNKNOWN|TBD|TBA|-+|\.+|\?+)[ \t]*(?=[,;\n|]|$)/gi;
/** PLACEHOLDER_FIELD for a test (a global pattern's `test` keeps its place between calls). */
const HAS_PLACEHOLDER_FIELD = new RegExp(PLACEHOLDER_FIELD.source, 'i');

/** The text with its placeholder fields emptied (their separators kept), and what they said (null: none). */
export function withoutPlaceholderFields(given: string): { text: string; placeholders: string | null } {
  if (given.length > MAX_INPUT_CHARS || !HAS_PLACEHOLDER_FIELD.test(given)) return { text: given, placeholders: null };
  const found: string[] = [];
  const text = given.replace(PLACEHOLDER_FIELD, (_m, separator: string, word: string) => {
    found.push(word.toUpperCase());
    return separator;
  });
  return { text, placeholders: found.length ? found.join(', ') : null };
}

/** A telephone number (North American, or international with its `+`) or an e-mail address, maybe labelled. */
const CONTACT = String.raw`(?:(?:tel|phone|ph|t|e-?mail)\.?:?\s*)?(?:(?:\+?1[\s.-]?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}|\+\d[\d\s().-]{6,18}\d|[^\s@,;]+@[^\s@,;]+\.[A-Za-z]{2,})`;

/**
 * Telephone numbers and e-mail addresses (CONTACT) ending the text after a ZIP or Canadian postal code (`… KY 40219
 * (502) 555-0100`, `… KY 40219, jane@example.com, (502) 555-0100`): group 1 is them, without the separators before.
 */
const TRAILING_CONTACT = new RegExp(
  String.raw`(?<=\b(?:\d{5}(?:-\d{4})?|[A-Za-z]\d[A-Za-z] ?\d[A-Za-z]\d))[\s,;|]+(${CONTACT}(?:[\s,;|]+${CONTACT})*)\s*$`, 'i',
);

/** Seven or more figures at the end, the last four after an optional separator: maybe a telephone number. */
const ENDS_LIKE_A_PHONE_NUMBER = /[\d)][\s.-]?\d{3}[\s.-]?\d{4}\s*$/;

/**
 * A North American telephone number with its area code in brackets (`(502) 555-0100`), maybe labelled, anywhere: no
 * address part is written so, and the brackets would otherwise make the area code a note and the rest a unit.
 */
const BRACKETED_AREA_CODE_PHONE = /(?:\b(?:tel|phone|ph)\.?:?\s*)?(?:\+?1[\s.-]?)?\(\d{3}\)\s?\d{3}[\s.-]?\d{4}\b/gi;

/**
 * The text without a telephone number or e-mail address after its postal code (TRAILING_CONTACT), nor a telephone
 * number with a bracketed area code elsewhere, and those.
 */
export function withoutContacts(given: string): { text: string; contact: string | null } {
  // Longer input is cut anyway. (TRAILING_CONTACT costs about a microsecond; most text ends with no telephone number
  // and holds no `@`.)
  const maybe = given.length <= MAX_INPUT_CHARS && (given.includes('@') || ENDS_LIKE_A_PHONE_NUMBER.test(given));
  const found = maybe ? TRAILING_CONTACT.exec(given) : null;
  let text = found ? given.slice(0, found.index) : given;
  const contacts = found ? [found[1].trim()] : [];
  if (text.includes('(') && text.length <= MAX_INPUT_CHARS) {
    text = text.replace(BRACKETED_AREA_CODE_PHONE, (phone) => {
      contacts.unshift(phone.trim());
      return ' ';
    });
  }
  return { text, contact: contacts.length ? contacts.join(', ') : null };
}

/** A word of letters of another script than Latin, with no Latin letter and no figure (`王小明`, `美国`, `(Москва)`). */
const OTHER_SCRIPT_WORD = /^[^\p{Script=Latin}\d]*[^\p{Script=Latin}\P{L}][^\p{Script=Latin}\d]*$/u;

/**
 * A Latin address with words in another script before or after it (`王小明 123 MAIN ST, NEW YORK, NY 10001`; `…, DC
 * 20500, 美国`): the address alone, and the words taken off its start (`before`) and end (`after`, but for a name of
 * the US or Canada, which needs no word); null when there are none, or when nothing Latin is left.
 */
export function withoutOtherScriptAtEdges(text: string): { text: string; before: string | null; after: string | null } | null {
  if (!hasNonLatinLetters(text)) return null;
  const words = [...text.matchAll(/[^\s,;]+/g)];
  let i = 0;
  let j = words.length;
  while (i < j && OTHER_SCRIPT_WORD.test(words[i][0])) i++;
  while (j > i && OTHER_SCRIPT_WORD.test(words[j - 1][0])) j--;
  if (i === j || (i === 0 && j === words.length)) return null;
  const start = words[i].index;
  const end = words[j - 1].index + words[j - 1][0].length;
  const taken = (from: number, to: number) => words.slice(from, to).map((w) => w[0]).join(' ');
  return { text: text.slice(start, end), before: i > 0 ? taken(0, i) : null, after: j < words.length ? taken(j, words.length) : null };
}
