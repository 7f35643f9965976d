/**
 * The fake shop's order mutations, as the Admin GraphQL API documents them (shopify.dev, 2025-10):
 * `orderRiskAssessmentCreate(orderRiskAssessmentInput: {orderId, riskLevel, facts: [{description, sentiment}]})`
 * (at most 20 facts), `fulfillmentOrderHold(id, fulfillmentHold: {reason, reasonNotes, handle, notifyMerchant})` (a
 * handle unique per app and fulfillment order; needs `write_merchant_managed_fulfillment_orders`),
 * `fulfillmentOrderReleaseHold(id, holdIds)` (only holds of that fulfillment order), and `orderUpdate(input: {id,
 * shippingAddress})`.
 */
import type { GqlValue } from './fake-admin-graphql.js';
import type { FakeShopState } from './fake-admin.js';
import type { Outcome } from './fake-admin-resolvers.js';

const RISK_LEVELS = new Set(['HIGH', 'MEDIUM', 'LOW', 'NONE', 'PENDING']);
const SENTIMENTS = new Set(['NEGATIVE', 'NEUTRAL', 'POSITIVE']);
const HOLD_REASONS = new Set(['AWAITING_PAYMENT', 'HIGH_RISK_OF_FRAUD', 'INCORRECT_ADDRESS', 'INVENTORY_OUT_OF_STOCK', 'OTHER', 'AWAITING_RETURN_ITEMS', 'UNKNOWN_DELIVERY_DATE']);
const FULFILLMENT_SCOPE = 'write_merchant_managed_fulfillment_orders';

let holdSeq = 90_000_000;

const userError = (key: string, field: string[], message: string, cost = 10): Outcome => ({ value: { [key]: null, userErrors: [{ field, message }] }, cost });
const accessDenied = (): Outcome => ({
  error: { message: `Access denied for fulfillmentOrderHold field. Required access: \`${FULFILLMENT_SCOPE}\` access scope.`, extensions: { code: 'ACCESS_DENIED' } },
});

function fulfillmentOrder(state: FakeShopState, id: GqlValue) {
  for (const order of state.all('Order')) {
    const fo = order.fulfillmentOrders.find((f) => f.id === id);
    if (fo) return { order, fo };
  }
  return null;
}

type Args = Record<string, GqlValue>;

export const ORDER_MUTATIONS: Record<string, (state: FakeShopState, a: Args, now: () => number) => Outcome> = {
  orderRiskAssessmentCreate(state, a) {
    const input = (a.orderRiskAssessmentInput ?? {}) as Args;
    const order = state.find(String(input.orderId));
    if (!order || order.type !== 'Order') return userError('orderRiskAssessment', ['orderRiskAssessmentInput', 'orderId'], 'Order does not exist');
    const facts = Array.isArray(input.facts) ? input.facts as Args[] : [];
    if (!RISK_LEVELS.has(String(input.riskLevel))) return userError('orderRiskAssessment', ['orderRiskAssessmentInput', 'riskLevel'], 'Risk level is invalid');
    if (facts.length > 20) return userError('orderRiskAssessment', ['orderRiskAssessmentInput', 'facts'], 'Too many facts');
    if (facts.some((f) => typeof f.description !== 'string' || !SENTIMENTS.has(String(f.sentiment)))) {
      return userError('orderRiskAssessment', ['orderRiskAssessmentInput', 'facts'], 'Fact is invalid');
    }
    const assessment = { riskLevel: String(input.riskLevel), facts: facts.map((f) => ({ description: String(f.description).slice(0, 256), sentiment: String(f.sentiment) })) };
    order.riskAssessments.push(assessment);
    return { value: { orderRiskAssessment: assessment, userErrors: [] }, cost: 10 };
  },

  fulfillmentOrderHold(state, a) {
    if (!state.scopes.has(FULFILLMENT_SCOPE)) return accessDenied();
    const found = fulfillmentOrder(state, a.id);
    if (!found) return userError('fulfillmentHold', ['id'], 'Fulfillment order does not exist.');
    const input = (a.fulfillmentHold ?? {}) as Args;
    if (!HOLD_REASONS.has(String(input.reason))) return userError('fulfillmentHold', ['fulfillmentHold', 'reason'], 'Reason is invalid');
    const handle = typeof input.handle === 'string' ? input.handle : null;
    if (found.fo.status === 'CLOSED') return userError('fulfillmentHold', ['id'], 'The fulfillment order is not in a holdable state.');
    if (handle && found.fo.holds.some((h) => h.handle === handle)) {
      return userError('fulfillmentHold', ['fulfillmentHold', 'handle'], 'The handle provided for the fulfillment hold is already in use by this app for another hold on this fulfillment order.');
    }
    const hold = { id: `gid://shopify/FulfillmentHold/${++holdSeq}`, handle, reason: String(input.reason), reasonNotes: typeof input.reasonNotes === 'string' ? input.reasonNotes : null };
    found.fo.holds.push(hold);
    found.fo.status = 'ON_HOLD';
    return { value: { fulfillmentHold: hold, fulfillmentOrder: { id: found.fo.id, status: found.fo.status }, userErrors: [] }, cost: 10 };
  },

  fulfillmentOrderReleaseHold(state, a) {
    if (!state.scopes.has(FULFILLMENT_SCOPE)) return accessDenied();
    const found = fulfillmentOrder(state, a.id);
    if (!found) return userError('fulfillmentOrder', ['id'], 'Fulfillment order does not exist.');
    const ids = Array.isArray(a.holdIds) ? a.holdIds.map(String) : null;
    if (ids && ids.some((id) => !found.fo.holds.some((h) => h.id === id))) return userError('fulfillmentOrder', ['holdIds'], 'Fulfillment hold does not exist on this fulfillment order.');
    found.fo.holds = ids ? found.fo.holds.filter((h) => !ids.includes(h.id)) : [];
    if (!found.fo.holds.length) found.fo.status = 'OPEN';
    return { value: { fulfillmentOrder: { id: found.fo.id, status: found.fo.status }, userErrors: [] }, cost: 10 };
  },

  orderUpdate(state, a, now) {
    const input = (a.input ?? {}) as Args;
    const order = state.find(String(input.id));
    if (!order || order.type !== 'Order') return userError('order', ['id'], 'Order does not exist');
    if (input.shippingAddress && typeof input.shippingAddress === 'object') {
      const s = input.shippingAddress as Args;
      const str = (v: GqlValue) => (typeof v === 'string' ? v : null);
      order.address = {
        ...order.address, address1: str(s.address1), address2: str(s.address2), city: str(s.city), provinceCode: str(s.provinceCode),
        zip: str(s.zip), countryCodeV2: str(s.countryCode),
      };
    }
    order.updatedAt = now();
    return { value: { order: { id: order.id }, userErrors: [] }, cost: 10 };
  },
};
