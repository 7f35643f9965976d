/** POST /v1/validate: the request schema, the answer's shape, and the handler (with Idempotency-Key replay). */
import { z } from 'zod';
import { contactInputOf, validateRequestSchema } from '../../contact-check/contact-request.js';
import { NEXT_ACTIONS, type AddressActionReason } from '../../contact-check/next-action.js';
import { CHANGED_COMPONENT_NAMES, COMPONENT_CHANGES } from '../../validation/address/component-changes.js';
import { maskEmail, maskPhone } from '../../log.js';
import { answerIdempotently } from '../idempotent-answer.js';
import { answerPreflight } from '../middleware/publishable-keys.js';
import { Problem } from '../problems.js';
import type { Component } from '../openapi/components.js';
import {
  ADDRESS_EVIDENCE, ADDRESS_STATUSES, LOCATION_PRECISIONS, PHONE_TYPES,
  type CarrierSource, type Dpv, type EmailRisk, type EmailStatus, type PhoneStatus, type SmtpVerdict,
} from '../../validation/types.js';
import type { DeliveryType } from '../../validation/address/north-america/index.js';
import { endpoint, enumOf, type HandlerContext } from './endpoint.js';
import { policyQuery, requestPolicy } from './policies.js';

export const DPV_CODES = enumOf<Dpv>()(['Y', 'N', 'S', 'D', '']);
export const EMAIL_STATUSES = enumOf<EmailStatus>()(['valid', 'invalid', 'risky', 'unknown']);
export const EMAIL_RISKS = enumOf<EmailRisk>()(['low', 'medium', 'high']);
export const SMTP_VERDICTS = enumOf<SmtpVerdict>()(
  ['deliverable', 'undeliverable', 'catch_all', 'mailbox_full', 'disabled', 'unknown', 'pending', 'skipped'],
);
export const PHONE_STATUSES = enumOf<PhoneStatus>()(['valid', 'invalid', 'unknown']);
export const CARRIER_SOURCES = enumOf<CarrierSource>()(['live', 'allocation', 'none']);
const DELIVERY_TYPES = enumOf<DeliveryType>()(['street', 'po_box', 'rural_route', 'highway_contract', 'military', 'general_delivery']);

const part = z.string().nullable();

export const nextActionSchema = z.enum(NEXT_ACTIONS).describe(
  'What to do with the answer (docs/api.md#next_action): `accept` it as it is; `confirm` it with the person (a ' +
  'correction, a suggestion, a guess or something not checked: `unknown`, `catch_all`, `partial`, …); `fix`: something is `invalid`',
);

export const addressComponentsSchema = z.object({
  primary_number: part, street_predirection: part, street_name: part, street_suffix: part, street_postdirection: part,
  secondary_designator: part, secondary_number: part, city: part, state: part, postal_code: part, plus4: part, country: part,
  extra_secondaries: z.array(z.string()).optional().describe('US/Canada: units Pub 28 keeps off the delivery line (`BLDG A`, `FL 3`)'),
  urbanization: part.optional().describe("Puerto Rico's `URB` name"),
  delivery_type: z.enum(DELIVERY_TYPES).nullable().optional().describe('US/Canada: what the delivery line is'),
  county: part.optional().describe("US: the ZIP code's county (GeoNames)"),
  delivery_installation: part.optional().describe('Canada: `STN MAIN`, `SUCC CENTRE-VILLE`'),
});

export const addressLocationSchema = z.object({
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
  precision: z.enum(LOCATION_PRECISIONS).describe(
    "`rooftop`: on the building (NAD Placement, NAR); `parcel`: on its property (a parcel centroid, or an OpenAddresses " +
    "point, which does not say where on the property it stands); `interpolated`: " +
    "along a TIGER street segment by the house number; `postal_code`: the postal code's centre (GeoNames, about 1 km)",
  ),
});

export const componentChangeSchema = z.object({
  name: z.enum(CHANGED_COMPONENT_NAMES).describe('`street`: predirection, name, suffix and postdirection; `unit`: designator and number'),
  value: z.string().describe('As the answer writes it'),
  input: z.string().nullable().describe('As the text wrote it, where known: the part before its correction, or the value found as written; null when added'),
  change: z.enum(COMPONENT_CHANGES).describe(
    '`none`; `inferred`: added from the rest (a ZIP code from the city, a country from the text); `replaced`: another value put in ' +
    'its place (a ZIP code of another place); `spell_corrected`: a spelling slip mended (`Louisvile`); `unconfirmed`: kept as written, not confirmed by reference data',
  ),
});

const ADDRESS_ACTION_REASONS = [
  'missing_unit', 'corrections', ...ADDRESS_STATUSES.map((s) => `status:${s}` as const),
] as const satisfies readonly AddressActionReason[];

export const addressResultSchema = z.object({
  status: z.enum(ADDRESS_STATUSES).describe(
    '`verified` delivery point confirmed; `corrected` confirmed by reference data after changing input components; ' +
    '`partial` building confirmed, unit missing or unknown; `plausible` well-formed and consistent but not confirmed ' +
    '(corrections made without reference data say so in `A#`/`B#`/`M#` footnotes); `ambiguous` several candidates; `invalid`',
  ),
  standardized: z.string().nullable().describe('Upper case, one line, postal code included'),
  dpv: z.enum(DPV_CODES).describe('USPS DPV code, or "" when no reference data covers the address'),
  zip4: z.string().nullable().describe('`12345-6789` when the reference data gives the add-on'),
  country: z.string().nullable().describe('ISO 3166-1 alpha-2'),
  components: addressComponentsSchema,
  footnotes: z.array(z.string()).describe('Stable-prefix codes (`A#` ZIP, `B#` city/state, `N#` standardized, …)'),
  next_action: nextActionSchema,
  // Added for issue #50, last (see validateAnswerSchema).
  evidence: z.enum(ADDRESS_EVIDENCE).describe(
    'What confirmed the address (docs/api.md#address-evidence): `delivery_point` (USPS data holds it), `address_point` ' +
    '(an address file: NAD, OpenAddresses, NAR, RRAD), `street_range` (a TIGER number range of the street: not a house), ' +
    '`street` (the street is known in the postal code, the number not), `postal_code` (postal code, city and state ' +
    'agree), `none`',
  ),
  sources: z.array(z.string()).describe('Ids of the data behind `evidence`: `usps`, `nad`, `openaddresses`, `nar`, `rrad`, `tiger`, `geonames`'),
  location: addressLocationSchema.nullable().describe('Where it is, and how closely; null when not known (or the address is invalid)'),
  // Added for issue #55, last (see validateAnswerSchema).
  changes: z.array(componentChangeSchema).describe('What changed, part by part (docs/api.md#what-changed): each part the answer has, as written and as answered'),
  missing_unit: z.boolean().describe('The building has units and none was given (USPS DPV `D`): ask for the unit (`next_action` `confirm`, `next_action_reason` `missing_unit`)'),
  match_score: z.number().min(0).max(1).describe('0 to 1: how far the evidence reaches (`delivery_point` 1 … `none` 0.2), less 0.05 a part inferred or spell-corrected, 0.1 a part replaced or a missing unit; 0 when `invalid`'),
  next_action_reason: z.enum(ADDRESS_ACTION_REASONS).nullable().describe(
    'Which rule made `next_action` more than `accept`: `missing_unit`, `corrections` (a part corrected or added), or `status:<status>`; null for `accept`',
  ),
});

export const emailResultSchema = z.object({
  status: z.enum(EMAIL_STATUSES),
  risk: z.enum(EMAIL_RISKS),
  smtp: z.enum(SMTP_VERDICTS).describe('`pending`: the probe goes on past the budget; `skipped`: no probe was made'),
  reason: z.string().describe(
    'Why the status: `syntax` (finer codes after a colon, `syntax:local_too_long`), `no_such_domain`, `no_mail_server`, ' +
    '`null_mx`, `mailbox_not_found`, `disabled`, `catch_all`, `mailbox_full`, `disposable`, `role`, `temp_fail`, ' +
    '`timeout`, `blocked`, `no_connect`, `dns_error`, `accepted`, `typo`, `not_checked`, `reserved_domain` (example.com, ' +
    '`.test`, `.example`, `.invalid`, `.localhost`: never a mailbox), `bounced` (the account reported a hard bounce, ' +
    '`POST /v1/feedback`), …',
  ),
  normalized: z.string().nullable(),
  suggestion: z.string().nullable().describe('A likely intended address when the domain looks mistyped'),
  disposable: z.boolean(),
  role: z.boolean(),
  free: z.boolean(),
  next_action: nextActionSchema,
  // Issue 54.2, last (see validateAnswerSchema).
  check_id: z.string().optional().describe(
    'On a `temp_fail`, `throttled` or `timeout` answer: the service asks again later; `GET /v1/email-checks/{check_id}` ' +
    'gives the answer that arrives, as do the cache, an `email.verified` event and a batch\'s result row (docs/email.md)',
  ),
  // Issue 54.4, last.
  catch_all_score: z.object({
    score: z.number().min(0).max(1).describe('(delivered + 1) / (delivered + bounced + 2) over the account\'s outcomes at the domain'),
    outcomes: z.int().min(0).describe('How many outcomes the score rests on'),
  }).optional().describe(
    'On a catch-all answer, once the account has told outcomes of its mail (`POST /v1/feedback`): how likely a mail to the domain is delivered (docs/email.md#feedback)',
  ),
});

export const phoneResultSchema = z.object({
  status: z.enum(PHONE_STATUSES),
  type: z.enum(PHONE_TYPES),
  carrier: z.string().nullable(),
  carrier_source: z.enum(CARRIER_SOURCES).describe(
    '`live`: current carrier from a live look-up; `allocation`: original holder of the number block; `none`',
  ),
  e164: z.string().nullable(),
  country: z.string().nullable(),
  reason: z.string().nullable().optional().describe(
    'Why the number is invalid: `too_short`, `too_long`, `invalid_length`, `invalid_country_code`, `missing_country_code`, ' +
    '`invalid_for_region`, `not_a_number`, `empty`, `emergency_number` (`911`, `112`, …), `short_code` (`411`, an SMS short code)',
  ),
  national: z.string().nullable().optional().describe('National format'),
  next_action: nextActionSchema,
});

export const creditsSchema = z.object({
  charged: z.int().min(0),
  remaining: z.int().min(0),
});

// New fields go last, so that the clients' generated models (Java records) keep their constructors; the answer itself
// sends `next_action` first.
export const validateAnswerSchema = z.object({
  address: addressResultSchema.nullable(),
  email: emailResultSchema.nullable(),
  phone: phoneResultSchema.nullable(),
  credits: creditsSchema.nullable().describe('null for a publishable key, which reads nothing of the account'),
  request_id: z.string(),
  response_ms: z.int().min(0),
  test: z.boolean().describe('true when a test key (`cv_test_…`) asked: network checks off, nothing charged (docs/account.md#test-keys)'),
  next_action: nextActionSchema.describe('The most demanding of the modules asked: `fix` if one says fix, else `confirm` if one says confirm, else `accept`'),
});

const ANSWER_EXAMPLE = {
  next_action: 'accept',
  address: {
    status: 'verified', standardized: '1600 AMPHITHEATRE PKWY MOUNTAIN VIEW CA 94043-1351', dpv: 'Y', zip4: '94043-1351',
    country: 'US',
    components: {
      primary_number: '1600', street_predirection: null, street_name: 'AMPHITHEATRE', street_suffix: 'PKWY',
      street_postdirection: null, secondary_designator: null, secondary_number: null, city: 'MOUNTAIN VIEW', state: 'CA',
      postal_code: '94043', plus4: '1351', country: 'US',
    },
    footnotes: ['N#'],
    next_action: 'accept',
    evidence: 'delivery_point',
    sources: ['usps'],
    location: { lat: 37.4224, lon: -122.0842, precision: 'rooftop' },
    changes: [
      { name: 'primary_number', value: '1600', input: '1600', change: 'none' },
      { name: 'street', value: 'AMPHITHEATRE PKWY', input: null, change: 'none' },
      { name: 'city', value: 'MOUNTAIN VIEW', input: 'Mountain View', change: 'none' },
      { name: 'state', value: 'CA', input: 'CA', change: 'none' },
      { name: 'postal_code', value: '94043', input: '94043', change: 'none' },
      { name: 'plus4', value: '1351', input: null, change: 'inferred' },
      { name: 'country', value: 'US', input: null, change: 'inferred' },
    ],
    missing_unit: false,
    match_score: 0.9,
    next_action_reason: null,
  },
  email: {
    status: 'valid', risk: 'low', smtp: 'deliverable', reason: 'accepted', normalized: 'someone@example.com',
    suggestion: null, disposable: false, role: false, free: false, next_action: 'accept',
  },
  phone: {
    status: 'valid', type: 'fixed_or_mobile', carrier: null, carrier_source: 'none', e164: '+14155550123', country: 'US',
    next_action: 'accept',
  },
  credits: { charged: 4, remaining: 96 },
  request_id: 'req_6f1c2b9e',
  response_ms: 12,
  test: false,
};

export const validateComponents: Component[] = [
  [validateRequestSchema, {
    id: 'ValidateRequest',
    description: 'At least one of address, email, phone. `address` is one line (or several, separated by commas or line breaks), or its parts.',
    examples: [{
      address: '1600 Amphitheatre Pkwy, Mountain View, CA 94043', email: 'someone@example.com', phone: '+14155550123',
      country: 'US', options: { smtp: true },
    }],
  }],
  [addressComponentsSchema, { id: 'AddressComponents', description: 'Absent parts are null.' }],
  [addressLocationSchema, { id: 'AddressLocation' }],
  [componentChangeSchema, { id: 'AddressComponentChange' }],
  [addressResultSchema, { id: 'AddressResult' }],
  [emailResultSchema, { id: 'EmailResult' }],
  [phoneResultSchema, { id: 'PhoneResult' }],
  [creditsSchema, { id: 'Credits' }],
  [validateAnswerSchema, {
    id: 'ValidateAnswer',
    description: 'Every module asked for has an object; a module not asked for is null.',
    examples: [ANSWER_EXAMPLE],
  }],
];

type Context = HandlerContext<typeof policyQuery, typeof validateRequestSchema>;

async function validate({ req, res, deps, body, query }: Context): Promise<void> {
  const { idempotency } = deps;
  const input = contactInputOf(body);
  const context = res.locals.context;
  context.logFields.modules = ['address', 'email', 'phone'].filter((m) => input[m as 'address'] !== undefined);
  if (input.email !== undefined) context.logFields.email = maskEmail(input.email);
  if (input.phone !== undefined) context.logFields.phone = maskPhone(input.phone);

  const principal = context.principal!;
  const { accountId, publishable, test = false } = principal;
  // A test key: the same use case with network checks off and nothing charged (docs/account.md#test-keys).
  const validation = test ? deps.testValidation : deps.validation;
  if (publishable && input.phone !== undefined && !publishable.phone) {
    throw new Problem('module-not-allowed', 'This publishable key does not check phones (create it with phone: true).');
  }
  input.policy = await requestPolicy(deps.policies, principal, query.policy);
  await answerIdempotently(req, res, idempotency, async ({ ledgerId, chargeOnce, keyed }) => {
    const arrivedAtEpochMs = Date.now() - (performance.now() - context.arrivedAt);
    // Keyed by the record, charged once: an attempt that takes over a crashed one is not charged for its debit again.
    const answer = keyed
      ? await validation.validate(accountId, ledgerId, input, arrivedAtEpochMs, context.log, { chargeOnce, settleInDoubt: true })
      : await validation.validate(accountId, ledgerId, input, arrivedAtEpochMs, context.log);
    const { next_action, address, email, phone, credits } = answer;
    // A publishable key reads nothing of the account: not even its balance.
    return JSON.stringify({
      next_action, address, email, phone, credits: publishable ? null : credits, request_id: context.id,
      response_ms: Math.round(performance.now() - context.arrivedAt), test,
    });
  });
}

export const validateEndpoints = [endpoint({
  method: 'post',
  path: '/v1/validate',
  security: 'publishable',
  testKeys: true,
  operationId: 'validate',
  tag: 'Validate',
  summary: 'Validate an address, an e-mail address and a phone number',
  description:
    'Checks the modules asked for in parallel, within the time budget. Priced per module before the slow work starts ' +
    '(e-mail 1, US/Canadian address 1, other address 3, phone 2, landline 3); an `unknown` e-mail is refunded. ' +
    'A publishable key (`cv_pub_…`) may call this endpoint only, from one of its origins. A test key (`cv_test_…`) ' +
    'is answered by the same engines with network checks off (no DNS, SMTP or live phone look-up), is charged nothing ' +
    'and gets `"test": true`. `next_action` says what to do with the answer: `accept`, `confirm` or `fix`.',
  request: {
    headers: z.object({
      'Idempotency-Key': z.string().min(1).max(255).optional()
        .describe('Replays the first successful answer for 24 h (`Idempotent-Replayed: true`); 409 while the first is in flight, 422 with another body. A first attempt cut off by a crash is taken over by a retry once its lease (the budget plus 5 s) lapses, and charged once.'),
      'X-Request-Id': z.string().optional().describe('Echoed back and used as `request_id` when a safe token (`[A-Za-z0-9._:-]`, at most 64 characters); any other value is ignored and a new id given.'),
      Origin: z.string().optional().describe('Required with a publishable key: one of its origins.'),
    }),
    query: policyQuery,
    body: validateRequestSchema,
  },
  responses: {
    200: {
      description: 'The verdict of each module asked for',
      content: { 'application/json': { schema: validateAnswerSchema } },
      headers: { 'Idempotent-Replayed': { description: '`true` on a replayed answer', schema: z.literal('true') } },
    },
  },
  problems: [
    'invalid-json', 'invalid-request', 'invalid-header', 'insufficient-credits', 'origin-not-allowed', 'module-not-allowed',
    'idempotency-key-in-use', 'payload-too-large', 'unsupported-media-type', 'idempotency-key-reused',
  ],
  handler: validate,
}), endpoint({
  // Not in the description: a browser's CORS preflight, asked by the page's fetch, never by a client.
  method: 'options', path: '/v1/validate', security: 'none', hidden: true,
  operationId: 'validatePreflight', tag: 'Validate', summary: 'The CORS preflight of a page calling with a publishable key',
  responses: { 204: { description: 'The methods and headers a page may send' } },
  problems: [],
  handler: ({ res }) => answerPreflight(res),
})];
