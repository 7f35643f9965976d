/**
 * A postal code's blob (src/validation/address/zip-streets.ts): decoded, it is the structure it was encoded from, with
 * every kind of thing a point, a range or a TIGER side may carry.
 */
import { describe, expect, it } from 'vitest';
import {
  addPointTo, addRangeTo, addSegmentTo, decodeZipStreets, emptyZipStreets, encodeZipStreets,
} from '../../src/validation/address/zip-streets.js';
import type { AddressPointRecord } from '../../src/validation/address/reference-types.js';
import { syntheticPoints } from '../support/synthetic-reference.js';

const street = (name: string, suffix: string | null = 'ST', predirection: string | null = null) => ({ predirection, name, suffix, postdirection: null });

describe('a postal code blob', () => {
  it('When a postal code with points, units, add-ons, sources, coordinates, ranges and TIGER sides is encoded, then it decodes to the same structure', () => {
    // Arrange
    const zip = emptyZipStreets();
    const point = (p: Partial<AddressPointRecord>): AddressPointRecord =>
      ({ postalCode: '40219', street: street('APPLEGATE', 'LN'), primaryNumber: '6007', unit: null, plus4: null, city: 'LOUISVILLE', ...p });
    addPointTo(zip, point({ plus4: '2714', sources: ['openaddresses', 'nad'], location: { lat: 38.1234567, lon: -85.7654321, precision: 'rooftop' } }));
    addPointTo(zip, point({ primaryNumber: '6009', unit: 'APT 2', plus4: '0012' }));
    addPointTo(zip, point({ primaryNumber: '6009', unit: '3' }));
    addPointTo(zip, point({ primaryNumber: '12B', location: { lat: -0.0000001, lon: 179.9999999, precision: 'parcel' } }));
    addPointTo(zip, point({ primaryNumber: '999999999', plus4: 'ABCD' }));
    addPointTo(zip, point({ primaryNumber: '1', street: street('ÉCOLE', null, 'N'), sample: true, sources: ['rrad'] }));
    addPointTo(zip, point({ primaryNumber: 'N123W456', street: street('MAIN'), sources: ['usps'] }));
    addRangeTo(zip, {
      zip: '40219', recordType: 'S', street: street('MAIN'), primaryLow: '100', primaryHigh: '198', primaryParity: 'E',
      secondaryDesignator: null, secondaryLow: null, secondaryHigh: null, secondaryParity: null, plus4Low: '1001', plus4High: '1001',
    });
    addRangeTo(zip, {
      zip: '40219', recordType: 'H', street: street('SAINT JOHN', 'RD'), primaryLow: '5', primaryHigh: '5', primaryParity: 'O',
      secondaryDesignator: 'APT', secondaryLow: '1', secondaryHigh: '20', secondaryParity: 'B', plus4Low: null, plus4High: null,
    });
    addSegmentTo(zip, { postalCode: '40219', street: street('TIGERTAIL', 'RD'), fromNumber: '199', toNumber: '101', parity: 'O', from: { lat: 38, lon: -85 }, to: { lat: 38.001, lon: -85.002 }, source: 'tiger' });
    addSegmentTo(zip, { postalCode: '40219', street: street('TIGERTAIL', 'RD'), fromNumber: '100', toNumber: '198', parity: 'B', from: null, to: null, source: 'tiger' });
    for (const p of syntheticPoints(600, { zipCount: 1, seed: 3 })) {
      addPointTo(zip, point({ street: street(p.name, p.suffix, p.predirection), primaryNumber: p.number, unit: p.unit, plus4: p.plus4, sources: ['openaddresses'],
        location: { lat: Math.round(p.lat * 1e7) / 1e7, lon: Math.round(p.lon * 1e7) / 1e7, precision: 'rooftop' } }));
    }

    // Act
    const blob = encodeZipStreets(zip);
    const decoded = decodeZipStreets('40219', blob);

    // Assert: the same maps, entries and order (insertion order is what the look-ups iterate in; a record's fields
    // are compared by name).
    const plain = (z: ReturnType<typeof emptyZipStreets>) => JSON.stringify(z, (_, v: unknown) =>
      v instanceof Map ? ['Map', [...v]] : v instanceof Set ? ['Set', [...v]]
        : v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v);
    expect(plain(decoded)).toBe(plain(zip));
    expect(decoded.points.get('N|ÉCOLE||')?.get('1')?.sources).toEqual(['rrad']);
    expect(blob.length).toBeLessThan(600 * 8);
  });
});
