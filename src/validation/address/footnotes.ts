/**
 * The footnotes an address answer may carry: a stable code (modelled on the footnote letters of USPS CASS/Smarty
 * answers, with `#` as their separator) and the sentence shown to people. Clients can rely on the code prefix.
 */
/** `A`, `A and B`, `A, B, C, D and 3 more`. */
function listOf(items: readonly string[]): string {
  if (items.length <= 2) return items.join(' and ');
  const shown = items.slice(0, 4);
  return items.length > 4 ? `${shown.join(', ')} and ${items.length - 4} more` : `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

export const AddressFootnotes = {
  zipCorrected: (from: string, to: string) => `A#: ZIP code corrected from ${from} to ${to}`,
  zipAdded: (zip: string) => `A#: ZIP code ${zip} added`,
  cityCorrected: (from: string, to: string) => `B#: city corrected from ${from} to ${to}`,
  cityNotMailingName: (from: string, to: string) =>
    `B#: city corrected from ${from} to ${to}: USPS lists ${from} for the ZIP code but does not accept it in a last line (City-State data)`,
  cityAdded: (city: string) => `B#: city ${city} added from the ZIP code`,
  cityAddedFromReference: (city: string) => `B#: city ${city} added from the reference data of the postal code`,
  stateCorrected: (from: string, to: string) => `B#: state corrected from ${from} to ${to}`,
  stateAdded: (state: string) => `B#: state ${state} added from the ZIP code`,
  provinceAdded: (province: string) => `B#: province ${province} added from the postal code`,
  stateAddedFromCity: (state: string, city: string) => `B#: state ${state} added from the city ${city} (no other state has one of that name)`,
  provinceAddedFromCity: (province: string, city: string) => `B#: province ${province} added from the city ${city} (Canada Post's FSA names place it there)`,
  provinceCorrected: (from: string, to: string) => `B#: province corrected from ${from} to ${to} (postal code decides)`,
  zipCityStateDisagree: 'C#: ZIP code, city and state do not agree and nothing decides which is wrong',
  zipUnknown: (zip: string) => `C#: ZIP code ${zip} does not exist`,
  notAState: (code: string) => `C#: ${code} is not a US state, territory or Canadian province code`,
  zipOfOtherState: (zip: string, state: string) => `C#: ZIP code ${zip} belongs to ${state}`,
  cityNotChecked: (city: string, zip: string, zipCity: string) =>
    `V#: city ${city} is not in the embedded ZIP code data, which names ZIP code ${zip} ${zipCity} only, so it was not checked (load USPS City-State data to check it)`,
  cityOfOtherZips: (city: string, zip: string, zipCity: string) =>
    `V#: city ${city} is the place of other ZIP codes in the embedded ZIP code data, which names ZIP code ${zip} ${zipCity} only; USPS accepts several city names for many ZIP codes, so the ZIP code was kept and the city not checked (load USPS City-State data to check it)`,
  townNotChecked: (city: string, neighbour: string, state: string) =>
    `V#: city ${city} is not in the embedded ZIP code data, which names one place per ZIP code and has ${neighbour}, ${state}, so it was kept and not checked: give the ZIP code, or load USPS City-State data to check it`,
  zipNotListed: (zip: string, state: string) =>
    `V#: ZIP code ${zip} (${state}) is not in the embedded ZIP code data, so the city was not checked (load USPS City-State data to check it)`,
  militaryOfficeNotChecked: (office: string, zip: string) =>
    `V#: the embedded ZIP code data does not tell APO, FPO and DPO apart, so ${office} was not checked against ZIP code ${zip} (load USPS City-State data to check it)`,
  villageLine: (state: string, line: string) =>
    `V#: ${line} has no house number: addresses in ${state} are often a village or estate without one, so the line was kept and not checked (load address data to check it)`,
  territoryNotCovered: (state: string) =>
    `V#: the embedded ZIP code data has no places in ${state}, so the city was not checked (load USPS City-State data to check it)`,
  zipMalformed: (zip: string) => `C#: ZIP code ${zip} is not a ZIP code (five digits, optionally a hyphen and four more)`,
  cityUnknown: (city: string, state: string) => `C#: city ${city} not found in ${state}`,
  cityMaybeUnlisted:
    'V#: the embedded ZIP code data lists the main place of each ZIP code only, so a smaller place (a township, a village) may be missing from it: give the ZIP code, or load USPS City-State data',
  zipMissing: 'C#: ZIP code missing and the city has several',
  lastLineMissing: 'C#: city and state, or a ZIP code, are needed',
  cityOfSeveralStates: (city: string, states: readonly string[]) =>
    `C#: ${states.length} states have a city ${city} (${states.length > 6 ? `${states.slice(0, 6).join(', ')}, …` : states.join(', ')}); its state or a ZIP code is needed`,
  postalCodeMalformed: (code: string) =>
    `C#: postal code ${code} is not a Canadian postal code (A1A 1A1: letter, figure, letter, figure, letter, figure; D F I O Q U never appear; W and Z never start one)`,
  postalCodeUnknown: (code: string) => `C#: forward sortation area ${code} is not in use`,
  postalCodeMissing: 'C#: postal code missing',
  // Countries other than the US and Canada (Google's address metadata).
  postalCodeNotInFormat: (country: string, example: string | null) =>
    `C#: postal code missing or not in the ${country} format${example ? ` (for example ${example})` : ''}`,
  subdivisionMissing: 'C#: state, province or prefecture missing or not recognised',
  subdivisionAdded: (name: string) => `B#: state, province or prefecture ${name} added from the postal code`,
  subdivisionOfLocality: (name: string, locality: string) => `B#: state, province or area ${name} added from the city or district ${locality}`,
  postalCodeOfOtherSubdivision: (code: string, belongsTo: string, given: string) =>
    `C#: postal code ${code} belongs to ${belongsTo}, not ${given}`,
  streetMissing: 'E#: street address missing',
  cityMissing: 'C#: city missing',
  checkedAgainstFormat: (country: string) =>
    `DPV: checked against the ${country} address format; no delivery-point data for this country`,
  nonLatinScript: 'N#: written in a non-Latin script',
  countryOfScript: (country: string, script: string, by: readonly ('region' | 'block words' | 'letters' | 'postal code')[]) => {
    const named = {
      region: 'the region it names', 'block words': 'its block and lot words (丁目, 番地)', letters: 'letters of its own alphabet',
      'postal code': 'the form of its postal code',
    };
    const parts = [`the ${script} script`, ...by.map((b) => named[b])];
    const how = parts.length > 2 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts.join(' and ');
    return `B#: country ${country} told from ${how} (no country was named)`;
  },
  countryOfStreetWord: (country: string, word: string, region: boolean) =>
    `B#: country ${country} told from the street word ${word}${region ? ', the region it names' : ''} and the form of its postal code before the city (no country was named)`,
  countryOfPostcodeForm: (country: string, postalCode: string, street: string) =>
    `B#: country ${country} told from the form of its postal code ${postalCode} after a street named before its number (${street}; no country was named)`,
  streetWordCountries: (word: string, candidates: readonly string[]) =>
    `E#: the postal code stands before the city, as outside North America, and the street word ${word} and the postal code's form fit ${candidates.join(', ')}: give the country hint or end the address with the country`,
  countryMisspelt: (typed: string, country: string) => `B#: country ${typed} read as ${country} (one typing slip)`,
  countryOfScriptUnknown: (script: string, candidates: readonly string[]) =>
    `E#: country not recognised: addresses in the ${script} script are written in ${candidates.length} countries (${candidates.length > 8 ? `${candidates.slice(0, 8).join(', ')}, …` : candidates.join(', ')}) and the text tells none of them; give the country hint or name the country`,
  streetCorrected: (from: string, to: string) => `M#: street corrected from ${from} to ${to}`,
  numberOfRange: (written: string, number: string) =>
    `M#: the range ${written} read as number ${number} (the reference data holds it, not the range)`,
  unitInNumber: (written: string, unit: string, number: string) =>
    `M#: ${written} read as unit ${unit} of number ${number} (the reference data holds only that reading)`,
  standardized: 'N#: abbreviations and spelling standardized (USPS Publication 28)',
  plus4Replaced: (typed: string, data: string) => `A#: ZIP+4 add-on ${typed} replaced by ${data}, the reference data's for this delivery point`,
  unitDesignatorOfData: (typed: string, data: string) => `N#: unit designator ${typed} written ${data}, as the ZIP+4 data writes the unit`,
  standardizedCanada: 'N#: standardized per the Canada Post Canadian Addressing Guide',
  recipientDropped: (text: string) => `R#: text before the delivery line dropped: ${text}`,
  lastLineFirst: 'R#: city, state and ZIP code were written before the delivery line; read after it',
  otherLineSetAside: (text: string) =>
    `R#: an earlier delivery line set aside (Pub 28: mail goes to the line just above the city): ${text}`,
  buildingDropped: (text: string) => `R#: building name or note dropped from the delivery line: ${text}`,
  bracketNoteDropped: (text: string) => `R#: note in brackets dropped: ${text}`,
  attentionDropped: (text: string) => `R#: attention line dropped: ${text}`,
  extraDropped: (text: string) => `R#: words that fit no address part dropped: ${text}`,
  countyDropped: (text: string) => `R#: county dropped from the last line: ${text}`,
  markupRead: 'R#: HTML markup dropped (its tags read as line breaks or spaces, its character references as their characters)',
  fieldLabelsDropped: (text: string) => `R#: form field labels dropped: ${text}`,
  placeholderDropped: (text: string) => `R#: a placeholder for an empty field dropped: ${text}`,
  extraSecondary: (text: string) => `S#: further secondary information kept out of the delivery line: ${text}`,
  secondaryMissing: 'H#: the building has units and none was given',
  unitNumberMissing: (designator: string) => `S#: ${designator} without a unit number dropped (${designator} needs one)`,
  secondaryUnconfirmed: 'S#: the unit given could not be confirmed',
  notFound: 'F#: address not found in the reference data for this ZIP code',
  otherAddressSetAside: (text: string) => `AM#: two addresses, each with its last line: the one nearer the end was checked; set aside: ${text}`,
  ambiguousStreet: 'AM#: several streets of this ZIP code fit the input',
  zipUndeterminedSlip: (zip: string, city: string, slips: readonly string[]) =>
    `AM#: ZIP code ${zip} is not a ZIP code of ${city}, which has several; it is one typing slip from ${listOf(slips)}, but the reference data places the street in none of the city's ZIP codes, so the ZIP code could not be determined and was left out`,
  zipUndeterminedStreetInSeveral: (zip: string, city: string, zips: readonly string[]) =>
    `AM#: ZIP code ${zip} is not a ZIP code of ${city}, and the reference data holds the street in several of the city's ZIP codes (${listOf(zips)}), so the ZIP code could not be determined and was left out`,
  noReferenceData: 'DPV: no reference data covers this postal code; well-formed only',
  noReferenceDataForCity: "DPV: no reference data covers the city's ZIP codes; well-formed only",
  streetNotInCityZips: "DPV: the reference data holds the street in none of the city's ZIP codes it covers; well-formed only",
  streetNotCovered: 'DPV: the address points loaded for this postal code do not cover this street; well-formed only',
  numberNotInSample:
    'DPV: the embedded address points are a sample holding other numbers of this street, not this one; neither confirmed nor denied',
  boxNotCovered: 'DPV: the address points loaded for this postal code cover streets, not PO boxes or routes; well-formed only',
  boxNotInCityZips: "DPV: the address points loaded for the city's ZIP codes cover streets, not PO boxes or routes; well-formed only",
  deliveryPointConfirmed: 'DPV: delivery point confirmed',
  empty: 'E#: empty input',
  noLettersOrFigures: 'E#: no letters or figures to read',
  tooLong: 'E#: input longer than 400 characters was cut',
  nonLatin: 'E#: non-Latin script; US and Canadian addresses are written in Latin letters',
  noDeliveryLine: 'E#: no street, PO Box or rural route found',
  noPrimaryNumber: 'E#: house number missing',
  intersection: 'E#: a street corner, not a delivery point',
  poBoxNumberMissing: 'E#: PO Box number missing',
  militaryLineElsewhere: 'E#: a military delivery line (UNIT, PSC or CMR and a box) needs APO, FPO or DPO and AA, AE or AP',
  poBoxNumberZero: 'E#: PO Box 0 does not exist (box numbers start at 1)',
  onlyPostalCode: 'E#: only a postal code was given',
  unknownCountry: 'E#: country not recognised; give the country hint or end the address with the country',
  postalCodeBeforeCity: 'E#: the postal code stands before the city, as outside North America: give the country hint or end the address with the country',
  postalCodeNotNorthAmerican: (code: string) =>
    `E#: the address ends with ${code}, a postal code of ${code.length} figures, which no US ZIP code or Canadian postal code is: give the country hint or end the address with the country`,
  countryHintContradicted: (hint: string, country: string) =>
    `CH#: the country hint ${hint} is contradicted by the text, which names ${country}; answered for ${country}`,
  countryHintOverruled: (hint: string, country: string) =>
    `CH#: the country hint ${hint} does not fit the address, which is a ${country === 'US' ? 'US' : 'Canadian'} one`,
} as const;
