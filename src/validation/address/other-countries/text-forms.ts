/**
 * The forms text is compared in: without accents or case (matchForm), in comma groups of words (groupsOf), and the
 * words as the answer writes them (writtenWords: the letters typed, Turkish and Azerbaijani dotted capitals kept).
 */

export function plain(text: string, accents: 'off' | 'latin kept' = 'off'): string {
  const ascii = !/[^\x00-\x7f]/.test(text);
  if (ascii) return text.toUpperCase();
  // Full-width forms as their ASCII and dashes as hyphens (〒１００−０００１: U+2212); Latin accents off (kept, for the
  // words an answer writes); Greek's off (capitals are written without them); other scripts as written (NFD, put
  // together again by NFC in answers: Thai's SARA AM survives, where NFKD would split it for good).
  const upper = text.replace(/[\uff01-\uffee]/g, (c) => c.normalize('NFKC')).replace(/[\u2010-\u2015\u2212]/g, '-').normalize('NFD')
    .replace(accents === 'off' ? LATIN_OR_GREEK_ACCENT : GREEK_ACCENT, '$1').toUpperCase();
  // Georgian is written in Mkhedruli, whose capitals (Mtavruli) no address uses: kept as written.
  return GEORGIAN_CAPITAL.test(upper) ? upper.replace(GEORGIAN_CAPITALS, (c) => String.fromCharCode(c.charCodeAt(0) - 0xbc0)) : upper;
}

const GEORGIAN_CAPITAL = /[\u1c90-\u1cba\u1cbd-\u1cbf]/;
const GEORGIAN_CAPITALS = /[\u1c90-\u1cba\u1cbd-\u1cbf]/g;

/**
 * Accents on Latin and Greek letters, taken off (`É` -> `E`; Greek capitals are written without them); Cyrillic `Й`
 * and `Ё` are letters of their own and keep their marks.
 */
const LATIN_OR_GREEK_ACCENT = /([\p{Script=Latin}\p{Script=Greek}])[\u0300-\u036f]+/gu;
const GREEK_ACCENT = /(\p{Script=Greek})[\u0300-\u036f]+/gu;

/**
 * The form text is compared in: upper case without Latin accents (see plain), apostrophes and the marks of other
 * scripts (Thai vowel signs) kept, other punctuation and symbols (the 〒 sign) a space. Names and input go through it.
 */
export function matchForm(text: string, accents: 'off' | 'latin kept' = 'off'): string {
  // Arabic's and the ideographic comma (`القاهرة، مصر`, `東京都、千代田区`) separate as commas do. Initials written with
  // full stops keep together (`P.O. Box` -> PO BOX, `N.S.W.` -> NSW), as the US and Canadian reading keeps them.
  const upper = plain(text, accents);
  return (upper.includes('.') ? upper.replace(INITIALS_WITH_FULL_STOPS, '$1$2$3') : upper)
    .replace(/[\u060c\u3001]/g, ',').replace(/[\u2019\u02bc]/g, "'").replace(/[^\p{L}\p{M}\p{N},\s#/'-]+/gu, ' ');
}

const INITIALS_WITH_FULL_STOPS = /(?<![\p{L}\p{M}\p{N}])(\p{Lu})\.(\p{Lu})(?:\.(\p{Lu}))?\.?(?![\p{L}\p{M}\p{N}])/gu;

/** The text in match form as its comma (semicolon, line) groups, each a list of words. */
export function groupsOf(text: string, accents: 'off' | 'latin kept' = 'off'): string[][] {
  return matchForm(text, accents).split(/[,\n;]+/).map((g) => g.replace(/\s+/g, ' ').trim()).filter(Boolean).map((g) => g.split(' '));
}

/** Scripts written without spaces between words: a subdivision's name is looked for anywhere in the text. */
export const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/**
 * A group's words joined by spaces, worked out once for the many names looked for in it (a group rewritten in place,
 * as writePostalCodeAsThePostDoes does, is dropped from the cache first).
 */
export const joinedGroups = new WeakMap<string[], string>();
export function joined(ws: string[]): string {
  let text = joinedGroups.get(ws);
  if (text === undefined) joinedGroups.set(ws, (text = ws.join(' ')));
  return text;
}

export const notADash = (word: string) => !/^-+$/.test(word);

/** Countries whose language writes the capital of i with its dot (İ) and that of dotless ı without (I). */
export const TURKIC_CAPITALS = new Set(['TR', 'AZ']);

const LATIN_BEYOND_ASCII_OR_MARK = /[\u00c0-\u024f\u1e00-\u1eff\u0300-\u036f]/;

/**
 * The words of an answer as the writer wrote them: upper case with the accents of Latin letters kept (`MÜLLERSTRASSE`,
 * `SÃO PAULO`, `MARSZAŁKOWSKA`), where matching compares them without (see matchForm). A word the text does not hold
 * (a postal code rewritten, a region's name added) is written as it is.
 */
export function writtenWords(text: string, turkic = false): (word: string) => string {
  const byMatchForm = new Map<string, string>();
  // (Only text with Latin letters beyond ASCII, or combining marks, can hold a word the two forms write otherwise.)
  if (LATIN_BEYOND_ASCII_OR_MARK.test(text)) {
    const groups = groupsOf(text);
    // Turkish and Azerbaijani capitals keep the dot: `İstiklal Caddesi` is İSTİKLAL CADDESİ, `Kızılay` KIZILAY.
    const kept = groupsOf(turkic ? text.replace(/i/g, 'İ').replace(/ı/g, 'I') : text, 'latin kept');
    if (kept.length === groups.length && kept.every((ws, g) => ws.length === groups[g].length)) {
      // (A word written both ways, `MÜLLER` and `MULLER`, is written without: no accent is added where one was not typed.)
      kept.forEach((ws, g) => ws.forEach((w, i) => {
        const matched = groups[g][i];
        byMatchForm.set(matched, byMatchForm.has(matched) && byMatchForm.get(matched) !== w ? matched : w);
      }));
    }
  }
  return (word) => byMatchForm.get(word) ?? word;
}
