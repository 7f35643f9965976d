/**
 * The phone engine: offline validity, line type and allocation carrier from the data passed in, refined by a live
 * look-up when one is configured. Imports nothing from HTTP, the database or process.env.
 */
import type { MetadataJson } from 'libphonenumber-js/core';
import type { PhoneEngine, PhoneReadingForPricing, PhoneResult, PhoneType } from '../types.js';
import { findCarrierByPrefix, type CarrierPrefixIndex } from './carrier-prefix-index.js';
import { findNanpOperator, type NanpOperatorIndex } from './nanp-operator-index.js';
import { TYPES_WITH_CARRIER_PREFIX_DATA } from './phone-type-table.js';
import { readPhoneNumber, type PhoneReading } from './read-phone-number.js';
import type { LivePhoneLookup } from './live/live-phone-lookup.js';

export interface PhoneData {
  /** libphonenumber-js metadata (the `max` set in production: it carries the per-type patterns). */
  metadata: MetadataJson;
  /** +1: original holders of NANP exchanges and thousands blocks. */
  nanpOperators: NanpOperatorIndex;
  /** Elsewhere: Google libphonenumber carrier prefixes. */
  carrierPrefixes: CarrierPrefixIndex;
}

export interface PhoneEngineDeps {
  data: PhoneData;
  /** From createPhoneLookup(); null or absent: offline only. */
  liveLookup?: LivePhoneLookup | null;
}

export interface OfflinePhoneEngine extends PhoneEngine {
  /** The whole offline answer, synchronously (no live look-up). */
  validateOffline(input: string, countryHint?: string): PhoneResult;
  /** Aborts live look-ups in flight; the engine holds no timers of its own. */
  close(): Promise<void>;
}

function allocationCarrier(data: PhoneData, reading: PhoneReading): string | null {
  if (!reading.valid || !reading.callingCode || !reading.nationalNumber) return null;
  if (reading.callingCode === '1') {
    const holder = findNanpOperator(data.nanpOperators, reading.nationalNumber);
    if (holder) return holder;
  }
  if (!TYPES_WITH_CARRIER_PREFIX_DATA.has(reading.type)) return null;
  return findCarrierByPrefix(data.carrierPrefixes, reading.callingCode, reading.nationalNumber);
}

function offlineResult(data: PhoneData, reading: PhoneReading): PhoneResult {
  const carrier = allocationCarrier(data, reading);
  return {
    status: reading.valid ? 'valid' : 'invalid',
    type: reading.type,
    carrier,
    carrier_source: carrier ? 'allocation' : 'none',
    e164: reading.e164,
    country: reading.country,
    reason: reading.reason,
    national: reading.national,
  };
}

export function createPhoneEngine(deps: PhoneEngineDeps): OfflinePhoneEngine {
  const { data } = deps;
  const liveLookup = deps.liveLookup ?? null;

  /** Readings this engine made for pricing: the only ones `validate` takes instead of reading the number again. */
  const pricingReadings = new WeakSet<PhoneReadingForPricing>();

  function validateOffline(input: string, countryHint?: string): PhoneResult {
    return offlineResult(data, readPhoneNumber(input, countryHint, data.metadata));
  }

  function offlineReading(input: string, countryHint?: string): PhoneReading {
    const reading = readPhoneNumber(input, countryHint, data.metadata);
    pricingReadings.add(reading);
    return reading;
  }

  /** The live answer refines type and carrier; validity stays the offline verdict. */
  async function refinedLive(lookup: LivePhoneLookup, offline: PhoneResult, e164: string, deadline: number): Promise<PhoneResult> {
    const outcome = await lookup.lookup(e164, deadline);
    if (outcome.kind !== 'answered') return offline;
    const { type, carrier } = outcome.answer;
    return {
      ...offline,
      type: type ?? offline.type,
      ...(carrier ? { carrier, carrier_source: 'live' as const } : {}),
    };
  }

  return {
    validateOffline,
    offlineReading,

    offlineType(input: string, countryHint?: string): PhoneType {
      return readPhoneNumber(input, countryHint, data.metadata).type;
    },

    validate(input, options) {
      const priced = options.reading && pricingReadings.has(options.reading) ? (options.reading as PhoneReading) : null;
      const offline = priced ? offlineResult(data, priced) : validateOffline(input, options.country);
      if (!liveLookup || offline.status !== 'valid' || !offline.e164) return offline;
      return refinedLive(liveLookup, offline, offline.e164, options.deadline);
    },

    async close() {
      await liveLookup?.close();
    },
  };
}
