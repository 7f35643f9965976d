/**
 * A ZIP that is none of the city's is corrected only to a ZIP where the reference data has the street (and number);
 * where the data cannot tell, the answer says so (`ambiguous`, the ZIP left out) instead of guessing (issue 41).
 */
import { describe, expect, it } from 'vitest';
import { AddressFootnotes as F } from '../../src/validation/address/footnotes.js';
import { createAddressEngine, ReferenceIndex } from '../../src/validation/address/index.js';
import { check, shippedData } from './shipped-engine.js';

/** An engine whose only reference data is ELM ST, sampled in two ZIPs of Louisville (40219: 10; 40220: 20). */
function elmStreetInTwoZips() {
  const reference = new ReferenceIndex();
  const street = { predirection: null, name: 'ELM', suffix: 'ST', postdirection: null };
  reference.addPoint({ postalCode: '40219', street, primaryNumber: '10', unit: null, plus4: null, sample: true });
  reference.addPoint({ postalCode: '40220', street, primaryNumber: '20', unit: null, plus4: null, sample: true });
  return createAddressEngine({ ...shippedData, reference });
}
const at = (engine: ReturnType<typeof elmStreetInTwoZips>, input: string) => engine.validateSync(input, { deadline: Number.MAX_SAFE_INTEGER });

describe('address engine: a wrong ZIP corrected only where the street is', () => {
  it.each([
    // 90210 is one slip from Louisville's 40210; the embedded data holds the delivery point at 40219 (it was 40210).
    ['6007 Applegate Ln, Louisville, KY 90210', 'corrected', 'Y', '6007 APPLEGATE LN LOUISVILLE KY 40219', F.zipCorrected('90210', '40219')],
    // The street alone: the sample holds other numbers of APPLEGATE LN, all in 40219.
    ['6009 Applegate Ln, Louisville, KY 90210', 'plausible', '', '6009 APPLEGATE LN LOUISVILLE KY 40219', F.numberNotInSample],
    // The RRAD row's ZIP with its last digits swapped (40118 typed 40181): the point's ZIP, not the slip 40281.
    ['1303 Buckingham Court, Louisville, KY 40181', 'corrected', 'Y', '1303 BUCKINGHAM CT LOUISVILLE KY 40118', F.zipCorrected('40181', '40118')],
  ])('When "%s" has a ZIP none of the city\'s, then the ZIP is the one where the data has the street', (input, status, dpv, standardized, footnote) => {
    const r = check(input);
    expect([r.status, r.dpv, r.standardized]).toEqual([status, dpv, standardized]);
    expect(r.footnotes).toContain(footnote);
  });

  it.each([
    ['100 Main St, Louisville, KY 90210', '100 MAIN ST LOUISVILLE KY', F.zipUndeterminedSlip('90210', 'LOUISVILLE, KY', ['40210'])],
    ['111 N Wyoming Ave, Washington, DC 22202', '111 N WYOMING AVE WASHINGTON DC', F.zipUndeterminedSlip('22202', 'WASHINGTON, DC', ['20202'])],
  ])('When "%s" has a ZIP one slip from a ZIP of a city of several and no data places the street, then it is ambiguous and the ZIP left out', (input, standardized, footnote) => {
    const r = check(input);
    expect([r.status, r.dpv, r.components.postal_code, r.standardized]).toEqual(['ambiguous', '', null, standardized]);
    expect(r.footnotes).toContain(footnote);
  });

  it('When the street is in two ZIPs of the city and the ZIP typed is a slip of neither, then it is ambiguous and says where', () => {
    const r = at(elmStreetInTwoZips(), '30 Elm St, Louisville, KY 90000');
    expect([r.status, r.components.postal_code]).toEqual(['ambiguous', null]);
    expect(r.footnotes).toContain(F.zipUndeterminedStreetInSeveral('90000', 'LOUISVILLE, KY', ['40219', '40220']));
  });

  it('When the street is in two ZIPs of the city and the ZIP typed is a slip of one, then the slip decides between them', () => {
    const r = at(elmStreetInTwoZips(), '30 Elm St, Louisville, KY 90220');
    expect([r.status, r.dpv, r.standardized]).toEqual(['plausible', '', '30 ELM ST LOUISVILLE KY 40220']);
    expect(r.footnotes).toContain(F.zipCorrected('90220', '40220'));
  });

  it('When a one-ZIP town is given a slipped ZIP, then it is still corrected to the town\'s ZIP', () => {
    expect(check('10 Main St, Akutan, AK 99533').standardized).toBe('10 MAIN ST AKUTAN AK 99553');
  });
});
