/**
 * Builds USPS AIS records in the published fixed-width layouts (as src/validation/address/reference-formats/usps.ts
 * reads them), for test fixtures: no real USPS file is needed to test the readers.
 */
type Span = readonly [from: number, to: number];

function fixedWidth(length: number, fields: readonly [Span, string][]): string {
  const chars = Array<string>(length).fill(' ');
  for (const [[from, to], value] of fields) {
    const width = to - from + 1;
    const text = value.length > width ? value.slice(0, width) : value.padEnd(width);
    for (let i = 0; i < width; i++) chars[from - 1 + i] = text[i];
  }
  return chars.join('');
}

export interface Zip4Fields {
  zip: string;
  action?: 'A' | 'D';
  type: 'S' | 'H' | 'P' | 'R' | 'F' | 'G';
  predir?: string;
  name: string;
  suffix?: string;
  postdir?: string;
  low: string;
  high: string;
  parity?: 'O' | 'E' | 'B';
  secondary?: string;
  secLow?: string;
  secHigh?: string;
  addonLow?: string;
  addonHigh?: string;
  state?: string;
}

export function zip4Record(f: Zip4Fields): string {
  return fixedWidth(182, [
    [[1, 1], 'D'], [[2, 6], f.zip], [[7, 16], '0000000001'], [[17, 17], f.action ?? 'A'], [[18, 18], f.type],
    [[19, 22], 'C001'], [[23, 24], f.predir ?? ''], [[25, 52], f.name], [[53, 56], f.suffix ?? ''], [[57, 58], f.postdir ?? ''],
    [[59, 68], f.low.padStart(10, '0')], [[69, 78], f.high.padStart(10, '0')], [[79, 79], f.parity ?? 'B'],
    [[120, 123], f.secondary ?? ''], [[124, 131], f.secLow ?? ''], [[132, 139], f.secHigh ?? ''], [[140, 140], f.secLow ? 'B' : ''],
    [[141, 144], f.addonLow ?? ''], [[145, 148], f.addonHigh ?? f.addonLow ?? ''], [[149, 149], 'B'], [[158, 159], f.state ?? ''],
  ]);
}

export function cityStateRecord(f: { zip: string; city: string; state: string; mailing?: boolean; preferred?: string; county?: string }): string {
  return fixedWidth(129, [
    [[1, 1], 'D'], [[2, 6], f.zip], [[7, 12], 'X00001'], [[13, 13], ' '], [[14, 41], f.city], [[42, 54], f.city.slice(0, 13)],
    [[55, 55], 'P'], [[56, 56], f.mailing === false ? 'N' : 'Y'], [[57, 62], 'X00001'], [[63, 90], f.preferred ?? f.city],
    [[91, 91], 'Y'], [[100, 101], f.state], [[102, 104], '001'], [[105, 129], f.county ?? ''],
  ]);
}

/** The copyright header record that opens every USPS file. */
export const COPYRIGHT_RECORD = 'C' + 'COPYRIGHT USPS TEST FIXTURE'.padEnd(181);

export const ZIP4_FIXTURE_RECORDS = [
  COPYRIGHT_RECORD,
  zip4Record({ zip: '94043', type: 'S', name: 'AMPHITHEATRE', suffix: 'PKWY', low: '1600', high: '1600', parity: 'E', addonLow: '1351', state: 'CA' }),
  zip4Record({ zip: '94043', type: 'S', name: 'AMPHITHEATRE', suffix: 'PKWY', low: '1501', high: '1599', parity: 'O', addonLow: '1300', addonHigh: '1349', state: 'CA' }),
  zip4Record({ zip: '10118', type: 'H', name: '5TH', suffix: 'AVE', low: '350', high: '350', parity: 'E', addonLow: '0110', state: 'NY' }),
  zip4Record({ zip: '10118', type: 'H', name: '5TH', suffix: 'AVE', low: '350', high: '350', parity: 'E', secondary: 'STE', secLow: '100', secHigh: '199', addonLow: '0120', state: 'NY' }),
  zip4Record({ zip: '10118', type: 'H', predir: 'W', name: '34TH', suffix: 'ST', low: '20', high: '20', parity: 'E', secondary: 'APT', secLow: '1', secHigh: '40', addonLow: '0130', state: 'NY' }),
  zip4Record({ zip: '99553', type: 'P', name: 'PO BOX', low: '1', high: '99', addonLow: '0001', addonHigh: '0099', state: 'AK' }),
  zip4Record({ zip: '99553', type: 'R', name: 'RR 2', low: '100', high: '199', addonLow: '9701', state: 'AK' }),
  zip4Record({ zip: '94043', action: 'D', type: 'S', name: 'OLD', suffix: 'RD', low: '1', high: '9', state: 'CA' }),
  'D' + 'ABCDE'.padEnd(181),
];

export const CITY_STATE_FIXTURE_RECORDS = [
  COPYRIGHT_RECORD.slice(0, 129),
  cityStateRecord({ zip: '94043', city: 'MOUNTAIN VIEW', state: 'CA', county: 'SANTA CLARA' }),
  cityStateRecord({ zip: '94043', city: 'MOFFETT FIELD', state: 'CA', preferred: 'MOUNTAIN VIEW', county: 'SANTA CLARA' }),
  cityStateRecord({ zip: '49506', city: 'EAST GRAND RAPIDS', state: 'MI', preferred: 'GRAND RAPIDS', county: 'KENT' }),
  cityStateRecord({ zip: '1234X', city: 'NOWHERE', state: 'ZZ' }),
];
