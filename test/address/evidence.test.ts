/**
 * The answer says what confirmed it and where it is (issue #50 items 3 and 4), and no status claims more than its
 * evidence (issue #52 item 4): `corrected` only where reference data confirms the corrected address.
 */
import { describe, expect, it } from 'vitest';
import { addressNextAction } from '../../src/contact-check/next-action.js';
import { createAddressEngine, ReferenceIndex } from '../../src/validation/address/index.js';
import type { ReferenceAnswer, ReferenceQuery } from '../../src/validation/address/reference-types.js';
import { check, shippedData } from './shipped-engine.js';

/** An index whose look-ups answer as a TIGER range of the street would: the number in a range, no delivery point. */
class StreetRangeIndex extends ReferenceIndex {
  override lookup(q: ReferenceQuery): ReferenceAnswer {
    const answer = super.lookup(q);
    if (q.postalCode !== '62701' || q.street.name !== 'ADAMS') return answer;
    return {
      dpv: '', zip4: null, correctedStreet: null, ambiguous: false, evidence: 'street_range', sources: ['tiger'],
      location: { lat: 39.8003, lon: -89.6441, precision: 'interpolated' },
    };
  }
}

describe('address evidence, sources and location', () => {
  it('When an embedded RRAD point is typed, then it is an address point of rrad, placed at its own coordinates', () => {
    // Arrange: 6007 Applegate Lane is an RRAD row at 38.1343013, -85.6498512.
    // Act
    const r = check('6007 Applegate Ln, Louisville, KY 40219');
    // Assert
    expect([r.status, r.dpv, r.evidence, r.sources]).toEqual(['verified', 'Y', 'address_point', ['rrad']]);
    // OpenAddresses' coordinates (RRAD's): on the property, not said to be on the building.
    expect(r.location).toEqual({ lat: 38.1343013, lon: -85.6498512, precision: 'parcel' });
  });

  it('When only the ZIP, city and state agree, then the evidence is the postal code, placed at its GeoNames centre', () => {
    const r = check('1600 Pennsylvania Ave NW, Washington DC 20500');
    expect([r.status, r.dpv, r.evidence, r.sources]).toEqual(['plausible', '', 'postal_code', ['geonames']]);
    expect(r.location).toEqual({ lat: 38.89, lon: -77.04, precision: 'postal_code' });
  });

  it('When the street is sampled but not the number, then the evidence is the street, placed at the ZIP centre', () => {
    const r = check('6011 Applegate Ln, Louisville, KY 40219');
    expect([r.status, r.dpv, r.evidence]).toEqual(['plausible', '', 'street']);
    expect(r.location).toEqual({ lat: 38.14, lon: -85.7, precision: 'postal_code' });
  });

  it('When the index answers with a TIGER range, then the evidence is street_range, interpolated, and the status at most plausible', () => {
    const engine = createAddressEngine({ ...shippedData, reference: new StreetRangeIndex() });
    const r = engine.validateSync('123 Adams St, Springfield, IL 62701', { deadline: Number.MAX_SAFE_INTEGER });
    expect([r.status, r.dpv, r.evidence, r.sources]).toEqual(['plausible', '', 'street_range', ['tiger']]);
    expect(r.location).toEqual({ lat: 39.8003, lon: -89.6441, precision: 'interpolated' });
  });

  it('When a Canadian FSA agrees, then the evidence is the postal code, with no location (the FSA table has no centres)', () => {
    const r = check('100 Queen St W, Toronto ON M5H 2N2');
    expect([r.status, r.evidence, r.sources, r.location]).toEqual(['plausible', 'postal_code', ['geonames'], null]);
  });

  it('When the address is of another country, then nothing confirms it beyond its format', () => {
    const r = check('Friedrichstraße 1, 10117 Berlin');
    expect([r.status, r.evidence, r.sources, r.location]).toEqual(['plausible', 'none', [], null]);
  });

  it('When a whole address file holds the street but not the number, then the evidence is the street and an invalid answer has no location', () => {
    // Arrange: ELM ST of 40219 from a file that lists every number of its streets (not a sample): 10 only.
    const reference = new ReferenceIndex();
    reference.addPoint({
      postalCode: '40219', street: { predirection: null, name: 'ELM', suffix: 'ST', postdirection: null }, primaryNumber: '10',
      unit: null, plus4: null, sources: ['openaddresses'], location: { lat: 38.15, lon: -85.66, precision: 'rooftop' },
    });
    const engine = createAddressEngine({ ...shippedData, reference });
    // Act
    const r = engine.validateSync('12 Elm St, Louisville, KY 40219', { deadline: Number.MAX_SAFE_INTEGER });
    // Assert
    expect([r.status, r.dpv, r.evidence, r.location]).toEqual(['invalid', 'N', 'street', null]);
  });
});

describe('statuses that claim no more than their evidence (issue #52 item 4)', () => {
  it('When a misspelt street and city are mended by no reference data, then the answer is plausible, its changes said, and asked to confirm', () => {
    // Before: `corrected` beside "well-formed only", the street still PENSYLVANIA.
    const r = check('1600 Pensylvania Av, Washingtn DC');
    expect([r.status, r.dpv, r.evidence, r.components.street_name]).toEqual(['plausible', '', 'none', 'PENSYLVANIA']);
    expect(r.footnotes).toContain('B#: city corrected from WASHINGTN to WASHINGTON');
    expect(addressNextAction(r)).toBe('confirm');
  });

  it('When the corrected address is a delivery point of the data, then it is corrected', () => {
    const r = check('6007 Applegate Lane, Louisvile');
    expect([r.status, r.dpv, r.evidence]).toEqual(['corrected', 'Y', 'address_point']);
  });

  it('When two letters in the state\'s place are no state ("123 Fake Street, Springfield, ZZ 99999"), then the answer names them and keeps the city', () => {
    // Before: ZZ read as the city and SPRINGFIELD dropped as a note.
    const r = check('123 Fake Street, Springfield, ZZ 99999');
    expect([r.status, r.components.city, r.components.state]).toEqual(['invalid', 'SPRINGFIELD', null]);
    expect(r.footnotes).toContain('C#: ZZ is not a US state, territory or Canadian province code');
    expect(r.footnotes.some((f) => f.startsWith('R#'))).toBe(false);
  });
});
