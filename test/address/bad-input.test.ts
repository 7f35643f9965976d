import { describe, expect, it } from 'vitest';
import { check } from './shipped-engine.js';

describe('address engine: bad input never throws', () => {
  it.each([
    ['', /empty input/],
    ['   ', /empty input/],
    ['94043', /only a postal code/],
    ['PO Box', /PO Box number missing/],
    ['Municipal Airport', /no street/],
    // The script and the region tell the country; the postal code each requires is missing.
    ['Москва, Красная площадь, 1', /RUSSIAN FEDERATION told from the Cyrillic script and the region it names.*postal code missing/],
    ['北京市东城区', /CHINA told from the Han script.*postal code missing/],
    ['ул. Витоша 1, София', /Cyrillic script are written in \d+ countries .*give the country hint/],
    ['🏠🏠🏠 📬', /no letters or figures/],
    ['-- . ??', /no letters or figures/],
    ['N/A', /empty input/],
    ["1'; DROP TABLE addresses; --", /house number|no street|country not recognised|not found|C#/],
    ['x'.repeat(500), /longer than 400|country not recognised|no street/],
  ])('When the input is %j, then the status is invalid and a footnote says why', (input, why) => {
    const r = check(input);
    expect(r.status).toBe('invalid');
    expect(r.footnotes.join(' ')).toMatch(why);
  });

  it('When 500 characters of random noise are checked many times, then no answer throws and each has a status', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ,.#-/\n\'"();&💥é中';
    for (let n = 0; n < 300; n++) {
      const length = Math.floor(random() * 500);
      let s = '';
      for (let i = 0; i < length; i++) s += alphabet[Math.floor(random() * alphabet.length)];
      expect(['verified', 'corrected', 'partial', 'plausible', 'ambiguous', 'invalid']).toContain(check(s).status);
    }
  });

  it('When the input is not a string, then the answer is invalid rather than an exception', () => {
    expect(check(undefined as unknown as string).status).toBe('invalid');
  });
});
