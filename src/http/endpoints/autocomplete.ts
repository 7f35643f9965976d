/**
 * GET /v1/address/autocomplete: addresses and places of the loaded data that start with what a person has typed, for a
 * form's type-ahead (the checkout widget's, src/widget/autocomplete.ts). Free (no credits), rate-limited per key like
 * every /v1 call; a publishable key may call it from its origins.
 */
import { z } from 'zod';
import type { SuggestionCountry, SuggestionKind } from '../../validation/address/autocomplete.js';
import { answerPreflight } from '../middleware/publishable-keys.js';
import type { Component } from '../openapi/components.js';
import { endpoint, enumOf, json } from './endpoint.js';

const SUGGESTION_KINDS = enumOf<SuggestionKind>()(['address', 'street', 'place']);
const SUGGESTION_COUNTRIES = enumOf<SuggestionCountry>()(['US', 'CA']);
export const MAX_SUGGESTIONS = 10;
/** Answers change only when a reference file is imported: a browser may keep one for a few minutes. */
const MAX_AGE_S = 300;

export const autocompleteQuery = z.object({
  q: z.string().trim().min(1).max(200).describe('What has been typed so far: the start of a delivery line (`6007 Applegate La`), a city, a ZIP or a Canadian FSA'),
  country: z.string().regex(/^[A-Za-z]{2}$/, 'an ISO 3166-1 alpha-2 code').transform((c) => c.toUpperCase()).optional()
    .describe('ISO 3166-1 alpha-2: only this country (data is held for US and CA; another country has no suggestions)'),
  limit: z.coerce.number().int().min(1).max(MAX_SUGGESTIONS).default(5).describe(`How many suggestions at most (1-${MAX_SUGGESTIONS}, default 5)`),
}).strict();

export const addressSuggestionSchema = z.object({
  text: z.string().describe('One line as a form shows it: `6007 APPLEGATE LN, LOUISVILLE, KY 40219`'),
  street: z.string().nullable().describe('The delivery line (number and street), or the street alone; null for a place'),
  city: z.string().nullable(),
  state: z.string().nullable().describe('State or province code'),
  zip: z.string().nullable().describe('ZIP or Canadian postal code; null for a city of several ZIPs or a Canadian FSA'),
  country: z.enum(SUGGESTION_COUNTRIES),
  kind: z.enum(SUGGESTION_KINDS).describe(
    '`address`: a delivery point of the loaded data (an address file\'s point, or a number inside a USPS range); ' +
    '`street`: a street of a postal code, without a number; `place`: a city, or a ZIP\'s or FSA\'s place',
  ),
});

export const autocompleteAnswerSchema = z.object({
  suggestions: z.array(addressSuggestionSchema).describe('Best first: with a house number typed, delivery points first; else places and streets'),
});

export const autocompleteComponents: Component[] = [
  [addressSuggestionSchema, { id: 'AddressSuggestion' }],
  [autocompleteAnswerSchema, {
    id: 'AddressSuggestions',
    examples: [{
      suggestions: [{
        text: '6007 APPLEGATE LN, LOUISVILLE, KY 40219', street: '6007 APPLEGATE LN', city: 'LOUISVILLE', state: 'KY', zip: '40219',
        country: 'US', kind: 'address',
      }],
    }],
  }],
];

export const autocompleteEndpoints = [endpoint({
  method: 'get',
  path: '/v1/address/autocomplete',
  security: 'publishable',
  // Free, offline and the same for every account: a test key's client tests may use it (docs/account.md#test-keys).
  testKeys: true,
  operationId: 'autocompleteAddress',
  tag: 'Validate',
  summary: 'Suggest addresses as a person types',
  description:
    'Delivery points of the loaded reference data (the embedded RRAD sample, and the OpenAddresses, NAR and USPS files ' +
    'an operator imported) and places of the postal data (GeoNames ZIP codes and Canadian FSAs) whose written form ' +
    'starts with `q`, best first. Free: no credits are charged; rate-limited per key (and per client address for a ' +
    'publishable key, which may call it from its origins). The reference data is the service\'s, the same for every account.',
  request: {
    query: autocompleteQuery,
    headers: z.object({ Origin: z.string().optional().describe('Required with a publishable key: one of its origins.') }),
  },
  responses: {
    200: {
      description: 'The suggestions, best first (none is an empty list)',
      content: json(autocompleteAnswerSchema),
      headers: { 'Cache-Control': { description: `\`private, max-age=${MAX_AGE_S}\``, schema: z.string() } },
    },
  },
  problems: ['invalid-request', 'origin-not-allowed'],
  handler: ({ res, deps, query }) => {
    const { q, country, limit } = query;
    const suggestions = deps.addressSuggestions.suggest(q, { country, limit });
    const json = JSON.stringify({ suggestions });
    res.writeHead(200, {
      'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json),
      'Cache-Control': `private, max-age=${MAX_AGE_S}`,
    }).end(json);
  },
}), endpoint({
  // Not in the description: a browser's CORS preflight (the page's GET carries Authorization), never a client's.
  method: 'options', path: '/v1/address/autocomplete', security: 'none', hidden: true,
  operationId: 'autocompletePreflight', tag: 'Validate', summary: 'The CORS preflight of a page calling with a publishable key',
  responses: { 204: { description: 'The methods and headers a page may send' } },
  problems: [],
  handler: ({ res }) => answerPreflight(res, 'GET'),
})];
