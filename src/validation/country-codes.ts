/**
 * A country as people and systems write it in a field of its own (a CSV column, a CRM's `MailingCountry`, a shop's
 * country): the ISO 3166-1 alpha-2 code the engines take as a hint. i18n-iso-countries knows the codes and the names
 * in English, French, German and Spanish (`United States`, `Deutschland`, `Allemagne`, `Alemania`).
 */
import { createRequire } from 'node:module';
import countryCodes from 'i18n-iso-countries';

const require = createRequire(import.meta.url);
const NAME_LANGUAGES = ['en', 'fr', 'de', 'es'] as const;
for (const lang of NAME_LANGUAGES) countryCodes.registerLocale(require(`i18n-iso-countries/langs/${lang}.json`));

/**
 * A country field as the ISO code the engines take as a hint (`US`, `usa`, `United States`, `Deutschland`); null when
 * no table knows it (the text then goes into the address, where the engine may still read it).
 */
export function countryCodeOf(cell: string): string | null {
  const value = cell.trim().replace(/\./g, '');
  if (!value) return null;
  // Codes people write that ISO 3166 reserves for something else or does not list.
  if (/^uk$/i.test(value)) return 'GB';
  if (/^[A-Za-z]{2}$/.test(value)) return countryCodes.isValid(value.toUpperCase()) ? value.toUpperCase() : null;
  if (/^[A-Za-z]{3}$/.test(value)) {
    const code = countryCodes.alpha3ToAlpha2(value.toUpperCase());
    if (code) return code;
  }
  for (const lang of NAME_LANGUAGES) {
    const code = countryCodes.getAlpha2Code(value, lang);
    if (code) return code;
  }
  return null;
}
