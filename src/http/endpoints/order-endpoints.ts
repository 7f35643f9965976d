/**
 * What Shopify's checkout extensions call (docs/shopify.md): the buyer's answer about a doubtful address from the
 * thank-you or order-status page, authenticated by Shopify's session token; and the checkout extension's reports of
 * what it showed, authenticated by the store's publishable key. Both are called from a Shopify web worker (another
 * origin): their preflights are answered for every origin, and no cookie is ever read or allowed.
 */
import type { RequestHandler, Response } from 'express';
import { ipKeyGenerator, MemoryStore, rateLimit } from 'express-rate-limit';
import { z } from 'zod';
import { OrderNotFound, OrderWriteRefused, SessionTokenRefused, type OrderPort } from '../../sync/order-port.js';
import { CHECKOUT_COUNTS } from '../../sync/order-book.js';
import type { Database } from '../../db/data-source.js';
import { DatabaseRateLimitStore } from '../middleware/rate-limit.js';
import { Problem } from '../problems.js';
import { accountOf, endpoint, json, type EndpointDeps } from './endpoint.js';

/** Answers from one client address per minute on the buyer's endpoint: a buyer answers once or twice. */
const ANSWERS_PER_MINUTE = 30;

export const addressCorrectionSchema = z.object({
  address1: z.string().trim().min(1).max(200),
  address2: z.string().trim().max(200).nullish(),
  city: z.string().trim().min(1).max(100),
  province_code: z.string().trim().max(10).nullish().describe('`KY`'),
  zip: z.string().trim().min(1).max(20),
  country_code: z.string().trim().regex(/^[A-Za-z]{2}$/).describe('ISO 3166-1 alpha-2'),
}).strict();

export const addressConfirmationSchema = z.object({
  order_id: z.string().regex(/^gid:\/\/shopify\/Order\/\d+$/).describe('The order\'s GID, as the extension reads it'),
  action: z.enum(['confirm', 'correct']),
  address: addressCorrectionSchema.optional().describe('With `correct`: the address as the buyer corrected it'),
}).strict().refine((b) => b.action === 'confirm' || b.address, { message: '`correct` needs `address`', path: ['address'] });

const checkedAddressSchema = z.object({
  status: z.string(), standardized: z.string().nullable(),
}).nullable();

export const addressConfirmationAnswerSchema = z.object({
  status: z.enum(['confirmed', 'corrected']).describe('`corrected`: the new address is written to the order'),
  address: checkedAddressSchema.describe('The corrected address as checked (null for `confirm`)'),
  hold_released: z.boolean().describe('true when this answer released the fulfillment hold placed on the order'),
});

export const addressQuestionSchema = z.object({
  ask: z.boolean().describe('true: ask the buyer to confirm or correct the address (not yet answered)'),
  reason: z.enum(['undeliverable', 'ambiguous', 'unit_missing']).nullable().describe('Why the address is doubtful; null when it is not'),
});

export const checkoutSettingsQuery = z.object({
  shop: z.string().trim().toLowerCase().max(100).describe('The store\'s `*.myshopify.com` domain'),
}).strict();

export const checkoutSettingsSchema = z.object({
  mode: z.enum(['warn', 'block']).describe('What the extension does on an undeliverable address'),
});

export const checkoutEventSchema = z.object({
  shop: z.string().trim().toLowerCase().max(100).describe('The store\'s `*.myshopify.com` domain'),
  event: z.enum(CHECKOUT_COUNTS.filter((k) => k === 'prompt_shown' || k === 'went_on_after_warning' || k === 'suggestion_applied') as ['prompt_shown', 'went_on_after_warning', 'suggestion_applied']),
}).strict();

/** CORS for a caller with no cookies (a Shopify web worker): any origin may send it, as the token is the authority. */
function anyOrigin(methods: string): RequestHandler {
  return (_req, res, next) => {
    res.set({ 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': methods, 'Access-Control-Allow-Headers': 'Authorization, Content-Type' });
    next();
  };
}

export function perClient(db: Database, perMinute: number, prefix: string): RequestHandler[] {
  const store = db.dialect === 'postgres' ? new DatabaseRateLimitStore(db) : new MemoryStore();
  if (store instanceof DatabaseRateLimitStore) store.prefix = prefix;
  return [rateLimit({
    windowMs: 60_000, limit: perMinute, standardHeaders: 'draft-8', legacyHeaders: false, identifier: `${perMinute}-per-minute-per-address`, store,
    keyGenerator: (req) => ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown'),
    passOnStoreError: true,
    handler: (_req, res, next, options) => next(new Problem('rate-limited', `At most ${options.limit} answers per minute from one address; retry after ${res.getHeader('Retry-After') ?? 60} s.`)),
  })];
}

/** The session token of an extension's request (`Authorization: Bearer …`), or the refusal. */
function sessionTokenOf(authorization: string | undefined): string {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (!token) orderProblem(new SessionTokenRefused('no token'));
  return token!;
}

const ordersOf = (deps: EndpointDeps): OrderPort => {
  // The service always wires them (src/service.ts), through the registry; an application without them is a wiring fault.
  if (!deps.orders) throw new Error('the order checks are not wired');
  return deps.orders;
};

/** The use case's refusals as problems. */
export function orderProblem(err: unknown): never {
  if (err instanceof SessionTokenRefused) {
    throw new Problem('session-token-invalid', 'The session token is not one a store connected to this service signed.', {}, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
  }
  if (err instanceof OrderNotFound) throw new Problem('not-found', err.message);
  if (err instanceof OrderWriteRefused) throw new Problem('store-refused', err.message.slice(0, 300));
  throw err;
}

const preflight = (path: string, operationId: string, methods: string) => endpoint({
  method: 'options', path, security: 'none', hidden: true, operationId, tag: 'Connectors', summary: 'The CORS preflight of a Shopify extension',
  responses: { 204: { description: 'The methods and headers an extension may send' } },
  problems: [],
  before: () => [anyOrigin(methods)],
  handler: ({ res }: { res: Response }) => { res.set('Access-Control-Max-Age', '600').status(204).end(); },
});

export const orderEndpoints = [
  endpoint({
    method: 'post', path: '/shopify/orders/address-confirmation', security: 'none', operationId: 'answerShopifyAddressConfirmation', tag: 'Connectors',
    summary: "The buyer confirms or corrects an order's shipping address (thank-you / order-status extension)",
    description:
      '`Authorization: Bearer <Shopify session token>` (HS256 with the app\'s API secret; `dest` the shop). The order must be ' +
      'one this service checked for that shop, placed by the signed-in customer the token\'s `sub` names: a guest\'s order ' +
      '(no customer) is answered through the link mailed to its buyer, never with a token. Another shop\'s order, another ' +
      'buyer\'s, a guest\'s and a missing one all answer the same 404. `confirm` ' +
      'releases the fulfillment hold placed on it; `correct` checks the new address (free: an order is paid once), ' +
      'writes it to the order (`orderUpdate`) and releases the hold; an undeliverable correction is refused (422) and ' +
      `nothing is written. At most ${ANSWERS_PER_MINUTE} answers per minute from one client address.`,
    request: {
      headers: z.object({ Authorization: z.string().describe('`Bearer <session token>`') }),
      body: addressConfirmationSchema,
    },
    responses: { 200: { description: 'Done', content: json(addressConfirmationAnswerSchema) } },
    problems: ['invalid-json', 'invalid-request', 'session-token-invalid', 'not-found', 'address-undeliverable', 'store-refused',
      'payload-too-large', 'unsupported-media-type', 'rate-limited', 'database-unavailable'],
    before: (deps) => [anyOrigin('GET, POST'), ...perClient(deps.db, ANSWERS_PER_MINUTE, 'rlbuyer:')],
    handler: async ({ req, res, deps, body }) => {
      const token = sessionTokenOf(req.get('authorization'));
      const { order_id: gid, action, address } = body as z.output<typeof addressConfirmationSchema>;
      let outcome;
      try {
        outcome = await ordersOf(deps).answerWithSessionToken(token, gid, action === 'confirm' ? { action } : {
          action, address: {
            address1: address!.address1, address2: address!.address2 ?? null, city: address!.city, provinceCode: address!.province_code ?? null,
            zip: address!.zip, countryCode: address!.country_code.toUpperCase(),
          },
        });
      } catch (err) {
        orderProblem(err);
      }
      const checked = outcome.address ? { status: outcome.address.status, standardized: outcome.address.standardized } : null;
      if (outcome.status === 'undeliverable') {
        throw new Problem('address-undeliverable', `The corrected address is not a deliverable address (${checked?.status ?? 'invalid'}); nothing was written.`);
      }
      res.status(200).set('Cache-Control', 'no-store').json({ status: outcome.status, address: checked, hold_released: outcome.released });
    },
  }),
  endpoint({
    method: 'get', path: '/shopify/orders/address-confirmation', security: 'none', operationId: 'getShopifyAddressQuestion', tag: 'Connectors',
    summary: "Whether the thank-you / order-status extension should ask the buyer about the order's address",
    description:
      'The same session token and order rules as the POST (an order the token cannot be tied to answers the same 404 as ' +
      'a missing one). 404 while the order is not checked yet (its `orders/create` may arrive after the thank-you page): ' +
      'ask again a little later.',
    request: {
      headers: z.object({ Authorization: z.string().describe('`Bearer <session token>`') }),
      query: z.object({ order_id: z.string().regex(/^gid:\/\/shopify\/Order\/\d+$/).describe("The order's GID") }),
    },
    responses: { 200: { description: 'The question', content: json(addressQuestionSchema) } },
    problems: ['invalid-request', 'session-token-invalid', 'not-found', 'rate-limited', 'database-unavailable'],
    before: (deps) => [anyOrigin('GET, POST'), ...perClient(deps.db, ANSWERS_PER_MINUTE * 4, 'rlbuyerq:')],
    handler: async ({ req, res, deps, query }) => {
      const token = sessionTokenOf(req.get('authorization'));
      try {
        const question = await ordersOf(deps).questionWithSessionToken(token, (query as { order_id: string }).order_id);
        res.status(200).set('Cache-Control', 'no-store').json(question);
      } catch (err) {
        orderProblem(err);
      }
    },
  }),
  preflight('/shopify/orders/address-confirmation', 'answerShopifyAddressConfirmationPreflight', 'GET, POST'),
  endpoint({
    method: 'post', path: '/v1/checkout/events', security: 'publishable', operationId: 'reportCheckoutEvent', tag: 'Connectors',
    summary: 'A checkout extension reports what it showed (the merchant\'s proof on the dashboard)',
    description:
      'With the store\'s publishable key (from one of its origins: Shopify\'s extensions run on ' +
      '`https://extensions.shopifycdn.com`), rate-limited per client address like /v1/validate. Counts per day: ' +
      '`prompt_shown`, `went_on_after_warning`, `suggestion_applied`. The shop must be one of the account\'s connectors.',
    request: { body: checkoutEventSchema },
    responses: { 204: { description: 'Counted' } },
    problems: ['invalid-json', 'invalid-request', 'not-found', 'payload-too-large', 'unsupported-media-type'],
    handler: async ({ res, deps, body }) => {
      const { shop, event } = body as z.output<typeof checkoutEventSchema>;
      try {
        await ordersOf(deps).report(accountOf(res), shop, event);
      } catch (err) {
        orderProblem(err);
      }
      res.status(204).end();
    },
  }),
  preflight('/v1/checkout/events', 'reportCheckoutEventPreflight', 'POST'),
  endpoint({
    method: 'get', path: '/v1/checkout/settings', security: 'publishable', operationId: 'getCheckoutSettings', tag: 'Connectors',
    summary: 'What the checkout extension does in a store (its dashboard settings)',
    description:
      'With the store\'s publishable key, like /v1/checkout/events. `mode`: `warn` (show a doubt, let the buyer go on) or ' +
      '`block` (stop the buyer on an undeliverable address, where the merchant lets the extension block). The shop must ' +
      'be one of the account\'s connectors.',
    request: { query: checkoutSettingsQuery },
    responses: { 200: { description: 'The store\'s settings', content: json(checkoutSettingsSchema) } },
    problems: ['invalid-request', 'not-found'],
    handler: async ({ res, deps, query }) => {
      let mode;
      try {
        mode = await ordersOf(deps).checkoutMode(accountOf(res), (query as z.output<typeof checkoutSettingsQuery>).shop);
      } catch (err) {
        orderProblem(err);
      }
      res.status(200).set('Cache-Control', 'private, max-age=60').json({ mode });
    },
  }),
  preflight('/v1/checkout/settings', 'getCheckoutSettingsPreflight', 'GET'),
];
