/** What the parser reads: the delivery line (street, box, route …) and the whole address around it. */

export type DeliveryKind =
  | 'street' | 'highway' | 'intersection' | 'po_box' | 'rural_route' | 'highway_contract' | 'military' | 'general_delivery' | 'none';

export interface DeliveryLine {
  kind: DeliveryKind;
  primaryNumber: string | null;
  predirection: string | null;
  name: string | null;
  suffix: string | null;
  /** Canadian French street types stand before the name (RUE SAINT-DENIS). */
  suffixBeforeName: boolean;
  postdirection: string | null;
  secondaryDesignator: string | null;
  secondaryNumber: string | null;
  /**
   * Further secondary units (BLDG 300 and FL 3 beside STE 120), outermost first: Pub 28 keeps only the innermost on
   * the delivery line (secondaryDesignator, secondaryNumber); the others are kept here.
   */
  extraSecondaries: Secondary[];
  /** Words that fit no part (notes), dropped from the answer. */
  leftover: string[];
  /** A building name written between the street and the unit (`TOWER PLACE`), dropped from the answer. */
  building: string | null;
  /** An attention line written after the delivery line (`ATTN MR JOHN POOLE`), dropped from the answer. */
  attention: string | null;
  /** Canada Post delivery installation after a box, route or general delivery (`STN MAIN`, `SUCC CENTRE-VILLE`). */
  installation: string | null;
  /** 2: ends as a street should (suffix, unit, route number, box); 1: a bare name; lower with leftovers. */
  quality: number;
  /** The street as typed when a misspelt state's name was read as that state's route (`VEROMNT 113`), else null. */
  nameTyped: string | null;
}

export interface ParsedAddress extends DeliveryLine {
  country: 'US' | 'CA' | null;
  city: string | null;
  state: string | null;
  postalCode: string | null;
  plus4: string | null;
  /** Text before the delivery line (recipient, firm or building name), dropped. */
  recipient: string | null;
  /** Words after the ZIP code (a firm or note written last), dropped. */
  trailing: string | null;
  /** The ZIP as typed when it was read otherwise (`4O219`, the letter O for a zero), else null. */
  postalCodeTyped: string | null;
  /** The state as typed when it was a misspelt name read as the ZIP's state (`CALIFRONIA`), else null. */
  stateTyped: string | null;
  /**
   * Two letters standing where the state goes (`…, SPRINGFIELD, ZZ 99999`) that are no state, province or territory
   * code, set only then: read as no state at all rather than as the city.
   */
  notAState?: string;
  /** The county written before the state (`JEFFERSON COUNTY`, `…, JEFFERSON, KY`), dropped; else null. */
  county: string | null;
  /**
   * A complete delivery line written before the one used (`3523 WILLIAMS ST, POB 477`): Pub 28 delivers to the line
   * just above the city, so the earlier one is kept apart (it is part of `recipient`).
   */
  otherLine: DeliveryLine | null;
  /** Puerto Rico's urbanization (`LAS GLADIOLAS` of `URB LAS GLADIOLAS`): the development the street is in. */
  urbanization: string | null;
  nonLatin: boolean;
  tokenCount: number;
  /**
   * A milepost or kilometre marker that locates an address on a road with no house number (`MILE 15.5 STERLING HWY`,
   * Puerto Rico's `CARR 2 KM 15.5`): it stands as the primary number; `afterStreet` when it was written after the road.
   */
  milepost?: { text: string; afterStreet: boolean } | null;
}

export interface Secondary {
  designator: string;
  number: string | null;
}

/** The extraSecondaries of a line without them, shared (lines replace the array, never push to it). */
export const NO_SECONDARIES: Secondary[] = [];

export function emptyLine(): DeliveryLine {
  return {
    kind: 'none', primaryNumber: null, predirection: null, name: null, suffix: null, suffixBeforeName: false,
    postdirection: null, secondaryDesignator: null, secondaryNumber: null, extraSecondaries: NO_SECONDARIES, leftover: [], attention: null, installation: null,
    building: null, quality: 0, nameTyped: null,
  };
}

export interface ParseOptions {
  countryHint?: 'US' | 'CA';
  /** The territory a country hint named (`PR` for `country: "PR"`): its own address forms are read. */
  territory?: string;
  /** Place names of the loaded address files, for cities the embedded gazetteer does not list. */
  places?: LocalPlaceNames;
}

/**
 * Place names that the loaded address files (RRAD, OpenAddresses, the NAR) give their postal codes, beyond the embedded
 * gazetteer's one name per ZIP: ReferenceIndex provides them.
 */
export interface LocalPlaceNames {
  /** The postal codes whose points the files place in the city (by cityKey). */
  postalCodesOfLocalCity(key: string): ReadonlySet<string>;
  /** True when the files place some point of the postal code in the city (by cityKey). */
  isLocalCityOf(postalCode: string, key: string): boolean;
  /** True when the loaded data has a street of that name in the postal code (any street, for a null name). */
  hasStreet(postalCode: string, name: string | null): boolean;
  /** The postal codes where the loaded data has a street of that name, if any. */
  zipsWithStreetName(name: string): ReadonlySet<string> | undefined;
  /** True when the loaded data has a street of that name and type (null: none) in the postal code. */
  hasStreetOfType(postalCode: string, name: string, suffix: string | null): boolean;
}
