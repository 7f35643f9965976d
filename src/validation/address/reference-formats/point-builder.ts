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

/** A ZIP+4 as files write it (`94043-1300`, `940431300`): the ZIP is cached, the add-on goes with the point. */
const ZIP_PLUS4 = /^(\d{5})-?(\d{4})$/;

export class PointBuilder {
  private readonly streets = new Map<string, Street>();
  private readonly postals = new Map<string, Postal>();
  private readonly units = new Map<string, string | null>();
  private readonly places = new Map<string, string | null>();

  constructor(private readonly country: 'US' | 'CA') {}

  private probe(raw: Omit<RawAddressPoint, 'country' | 'number'>) {
    return addressPointOf({ number: PROBE_NUMBER, country: this.country, ...raw });
  }

  private postal(code: string): Postal {
    let postal = this.postals.get(code);
    if (postal === undefined) {
      if (this.postals.size >= CACHE_LIMIT) this.postals.clear();
      const probe = this.probe({ street: PROBE_STREET, postalCode: code });
      postal = 'rejected' in probe ? probe : { postalCode: probe.postalCode, plus4: probe.plus4 };
      this.postals.set(code, postal);
    }
    return postal;
  }

  private street(text: string): Street {
    let street = this.streets.get(text);
    if (street === undefined) {
      if (this.streets.size >= CACHE_LIMIT) this.streets.clear();
      const probe = this.probe({ street: text, postalCode: PROBE_POSTAL[this.country] });
      street = 'rejected' in probe || probe.primaryNumber !== PROBE_NUMBER ? 'slow' : { street: probe.street, unit: probe.unit };
      this.streets.set(text, street);
    }
    return street;
  }

  /** The unit a unit text names; null when it holds no word (the street text's unit then stands, as in addressPointOf). */
  private unit(text: string): string | null {
    let unit = this.units.get(text);
    if (unit === undefined) {
      if (this.units.size >= CACHE_LIMIT) this.units.clear();
      const probe = this.probe({ street: PROBE_STREET, unit: text, postalCode: PROBE_POSTAL[this.country] });
      unit = 'rejected' in probe ? null : probe.unit;
      this.units.set(text, unit);
    }
    return unit;
  }

  private place(text: string): string | null {
    let city = this.places.get(text);
    if (city === undefined) {
      if (this.places.size >= CACHE_LIMIT) this.places.clear();
      city = placeName(text);
      this.places.set(text, city);
    }
    return city;
  }

  /** The point of one row of a file, or why it cannot be one. */
  point(raw: Omit<RawAddressPoint, 'country'> & { number: string }, location: PointLocation | null = null): AddressPointRecord | { rejected: string } {
    const street = PLAIN_NUMBER.test(raw.number) ? this.street(raw.street) : 'slow';
    const code = raw.postalCode.trim();
    const plus = this.country === 'US' ? ZIP_PLUS4.exec(code) : null;
    const postal = street === 'slow' ? null : this.postal(plus ? plus[1] : code);
    // (A rejected row takes the whole path too, for addressPointOf's own reason.)
    if (street === 'slow' || !postal || 'rejected' in postal) {
      const point = addressPointOf({ ...raw, country: this.country });
      return 'rejected' in point || !location ? point : { ...point, location };
    }
    const unit = (raw.unit ? this.unit(raw.unit) : null) ?? street.unit;
    const point: AddressPointRecord = {
      postalCode: postal.postalCode, street: street.street, primaryNumber: raw.number, unit, plus4: plus ? plus[2] : postal.plus4,
      city: raw.city ? this.place(raw.city) : null,
    };
    if (location) point.location = location;
    return point;
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
