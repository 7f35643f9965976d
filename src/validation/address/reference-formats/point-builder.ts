/**
 * Address points of national files, keyed exactly as addressPointOf keys them (the parser that reads input, Pub 28 and
 * Canada Post standardization), at the speed an import of 80 million points needs: a file holds many points per
 * street, so each distinct street spelling, unit text, postal code and place name goes through addressPointOf once and
 * the answer is kept (bounded caches, emptied when full: memory stays flat whatever the file). A point whose number is
 * not a plain one (`12A`, `1/2`, `N123`), or whose street the parser reads differently with another number, takes the
 * whole addressPointOf path. test/address/reference-national.test.ts checks that both paths give the same point.
 */
import { addressPointOf, placeName, type RawAddressPoint } from '../reference-records.js';
import type { AddressPointRecord, PointLocation, StreetParts } from '../reference-types.js';

const CACHE_LIMIT = 20_000;
const PLAIN_NUMBER = /^[1-9]\d{0,7}$/;
/** The number the street spellings are parsed with (any plain number: the street's parts do not depend on it). */
const PROBE_NUMBER = '100';
const PROBE_POSTAL = { US: '10001', CA: 'K1A 0B1' } as const;
const PROBE_STREET = 'MAIN ST';

type Street = { street: StreetParts; unit: string | null } | 'slow';
type Postal = { postalCode: string; plus4: string | null } | { rejected: string };

function remember<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    value = make();
    cache.set(key, value);
  }
  return value;
}

export class PointBuilder {
  private readonly streets = new Map<string, Street>();
  private readonly postals = new Map<string, Postal>();
  private readonly units = new Map<string, { unit: string | null }>();
  private readonly places = new Map<string, { city: string | null }>();

  constructor(private readonly country: 'US' | 'CA') {}

  /** The point of one row of a file, or why it cannot be one. */
  point(raw: Omit<RawAddressPoint, 'country'> & { number: string }, location: PointLocation | null = null): AddressPointRecord | { rejected: string } {
    const full = () => {
      const point = addressPointOf({ ...raw, country: this.country });
      return 'rejected' in point || !location ? point : { ...point, location };
    };
    if (!PLAIN_NUMBER.test(raw.number)) return full();
    const country = this.country;
    const postal = remember(this.postals, raw.postalCode, (): Postal => {
      const probe = addressPointOf({ number: PROBE_NUMBER, street: PROBE_STREET, postalCode: raw.postalCode, country });
      return 'rejected' in probe ? probe : { postalCode: probe.postalCode, plus4: probe.plus4 };
    });
    if ('rejected' in postal) return postal;
    const street = remember(this.streets, raw.street, (): Street => {
      const probe = addressPointOf({ number: PROBE_NUMBER, street: raw.street, postalCode: PROBE_POSTAL[country], country });
      return 'rejected' in probe || probe.primaryNumber !== PROBE_NUMBER ? 'slow' : { street: probe.street, unit: probe.unit };
    });
    if (street === 'slow') return full();
    // A unit text that is no unit (no word in it) leaves the unit the street text gives, as addressPointOf does.
    const unit = raw.unit
      ? remember(this.units, raw.unit, () => {
        const probe = addressPointOf({ number: PROBE_NUMBER, street: PROBE_STREET, unit: raw.unit, postalCode: PROBE_POSTAL[country], country });
        return { unit: 'rejected' in probe ? null : probe.unit };
      }).unit ?? street.unit
      : street.unit;
    const city = raw.city ? remember(this.places, raw.city, () => ({ city: placeName(raw.city) })).city : null;
    const point: AddressPointRecord = { postalCode: postal.postalCode, street: street.street, primaryNumber: raw.number, unit, plus4: postal.plus4, city };
    return location ? { ...point, location } : point;
  }
}

/** Degrees as a file writes them, when they are a place on Earth (0,0 is a file's way of saying it has none). */
export function coordinates(latText: string, lonText: string): { lat: number; lon: number } | null {
  if (!latText || !lonText) return null;
  const lat = Number(latText);
  const lon = Number(lonText);
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180 || (lat === 0 && lon === 0)) return null;
  return { lat, lon };
}
