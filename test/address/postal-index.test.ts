import { describe, expect, it } from 'vitest';
import { PostalIndex } from '../../src/validation/address/postal-index.js';

/** Four ZIPs of one county: 85301 and 85302 (GLENDALE) 4 km apart, 85201 (MESA) 35 km away; 85999 without coordinates. */
const ZIPS = [
  '85301\tAZ\tGLENDALE\tMARICOPA\t33.53\t-112.18',
  '85302\tAZ\tPEORIA\tMARICOPA\t33.56\t-112.17',
  '85201\tAZ\tMESA\tMARICOPA\t33.43\t-111.85',
  '85999\tAZ\tNOWHERE\tMARICOPA',
  '86001\tAZ\tFLAGSTAFF\tCOCONINO\t35.2\t-111.65',
].join('\n');

describe('PostalIndex: other names accepted for a ZIP', () => {
  const postal = PostalIndex.fromText(ZIPS, '');
  const place = (zip: string) => postal.zip(zip)![0];

  it('When a place of the same county has a ZIP within 10 km, then its name is accepted for the ZIP', () => {
    expect(postal.isAcceptableCity(place('85301'), 'PEORIA')).toBe(true);
    expect(postal.isAcceptableCity(place('85302'), 'Glendale')).toBe(true);
  });

  it('When a place of the same county is farther than 10 km, then its name is not accepted', () => {
    expect(postal.isAcceptableCity(place('85301'), 'MESA')).toBe(false);
  });

  it('When the place is in another county, then it is not accepted, however near', () => {
    expect(postal.isAcceptableCity(place('86001'), 'GLENDALE')).toBe(false);
  });

  it('When the ZIP has no coordinates, then the county alone decides (as GeoNames extracts without them did)', () => {
    expect(postal.isAcceptableCity(place('85999'), 'MESA')).toBe(true);
  });

  it('When the name is the ZIP\'s own, then it is accepted', () => {
    expect(postal.isAcceptableCity(place('85201'), 'Mesa')).toBe(true);
  });
});

describe('PostalIndex: a city name one typing slip away, in any state', () => {
  const postal = PostalIndex.fromText([
    '40202\tKY\tLOUISVILLE\tJEFFERSON\t38.25\t-85.75',
    '80027\tCO\tLOUISVILLE\tBOULDER\t39.97\t-105.13',
    '17047\tPA\tLOYSVILLE\tPERRY\t40.37\t-77.32',
    '99553\tAK\tAKUTAN\tALEUTIANS EAST\t54.14\t-165.77',
    '95945\tCA\tGRASS VALLEY\tNEVADA\t39.2\t-121.04',
  ].join('\n'), '');

  it('When the name typed is one slip from one name (of one state or several), then that name is the answer', () => {
    expect(postal.cityNamesOneSlipFrom('LOUISVILE')).toEqual(['LOUISVILLE']);
    expect(postal.cityNamesOneSlipFrom('LOIUSVILLE')).toEqual(['LOUISVILLE']);
    // The key abbreviates VALLEY (GRASSVLY): the letters of the name are compared too.
    expect(postal.cityNamesOneSlipFrom('Grass Valely')).toEqual(['GRASS VALLEY']);
  });

  it('When the name typed is one slip from two names, then both come back; shorter than six letters, or a name itself, none', () => {
    expect(postal.cityNamesOneSlipFrom('LOUSVILLE').sort()).toEqual(['LOUISVILLE', 'LOYSVILLE']);
    expect(postal.cityNamesOneSlipFrom('AKUTN')).toEqual([]);
    expect(postal.cityNamesOneSlipFrom('LOUISVILLE')).toEqual([]);
  });
});
