/**
 * The extensions' calls to the service (docs/shopify.md). They run in Shopify's sandbox with `network_access`, from the
 * origin https://extensions.shopifycdn.com, with the settings the merchant typed in the checkout editor.
 *
 * Every call gives up after TIMEOUT_MS, and any failure (network, timeout, a non-2xx answer, a body of another shape)
 * is `null`: a checkout is never held up or broken because the service is slow, down or misconfigured.
 */
import type { AddressAnswer } from './address-verdict.js';

const TIMEOUT_MS = 2500;

export interface Service {
  /** The service's base URL, without a trailing slash. */
  api: string;
  /** The store's publishable key (`cv_pub_…`); empty where only the session token is used. */
  key: string;
  /** The policy the address check follows (the block's *Policy* setting); empty: the key's own default. */
  policy?: string;
}

/**
 * The service named by the extension's settings, or null when they are missing or unsafe: the key travels only over
 * https (http only to this machine, for a developer's store), and a secret key is refused, as the widget refuses it.
 */
export function serviceOf(settings: Record<string, unknown> | undefined, needsKey = true): Service | null {
  const raw = typeof settings?.api_url === 'string' ? settings.api_url.trim() : '';
  const key = typeof settings?.publishable_key === 'string' ? settings.publishable_key.trim() : '';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  const loopback = url.hostname === 'localhost' || url.hostname === '127.0.0.1';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) return null;
  if (needsKey && !/^cv_pub_\w+$/.test(key)) return null;
  const policy = typeof settings?.policy === 'string' ? settings.policy.trim() : '';
  // (A policy that is no policy name would make every check a 400: the extension stays off instead, as the widget does.
  // The pattern is the service's POLICY_NAME, src/contact-check/policy-name.ts: an extension is built from its own folder.)
  if (policy && !/^[a-z0-9][a-z0-9_-]{0,39}$/.test(policy)) return null;
  return { api: `${url.origin}${url.pathname}`.replace(/\/+$/, ''), key, ...(policy ? { policy } : {}) };
}

/** A fetch that gives up after TIMEOUT_MS or when `signal` aborts; null instead of an error. */
async function call<T>(url: string, init: RequestInit, signal?: AbortSignal): Promise<{ status: number; body: T | null } | null> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  const timer = setTimeout(stop, TIMEOUT_MS);
  signal?.addEventListener('abort', stop);
  try {
    const res = await fetch(url, { ...init, signal: controller.signal });
    const type = res.headers.get('content-type') ?? '';
    const body = /json/.test(type) ? ((await res.json()) as T) : null;
    return { status: res.status, body };
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', stop);
  }
}

const jsonHeaders = (bearer: string) => ({ Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' });

/** POST /v1/validate with the address alone (no e-mail, no phone: one credit), or null. */
export async function checkAddress(s: Service, address: Record<string, string>, signal?: AbortSignal): Promise<AddressAnswer | null> {
  const answer = await call<{ address?: AddressAnswer | null }>(`${s.api}/v1/validate${s.policy ? `?policy=${encodeURIComponent(s.policy)}` : ''}`, {
    method: 'POST', headers: jsonHeaders(s.key), body: JSON.stringify({ address, options: { smtp: false } }),
  }, signal);
  const result = answer?.status === 200 ? answer.body?.address : null;
  return result && typeof result.status === 'string' ? result : null;
}

/** One suggestion of GET /v1/address/autocomplete (docs/api.md): a place has no street, a city of several ZIPs no zip. */
export interface AutocompleteSuggestion {
  text: string;
  street: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country?: string;
}

/** GET /v1/address/autocomplete (free of credits), or an empty list. */
export async function autocomplete(s: Service, q: string, country: string | undefined, limit: number, signal?: AbortSignal): Promise<AutocompleteSuggestion[]> {
  const query = new URLSearchParams({ q, limit: String(limit), ...(country ? { country } : {}) });
  const answer = await call<{ suggestions?: unknown }>(`${s.api}/v1/address/autocomplete?${query}`, {
    headers: { Authorization: `Bearer ${s.key}` },
  }, signal);
  const list = answer?.status === 200 && Array.isArray(answer.body?.suggestions) ? answer.body.suggestions : [];
  return list.filter((x): x is AutocompleteSuggestion => typeof x?.text === 'string');
}

/**
 * GET /v1/checkout/settings: whether the store's dashboard says to block on an undeliverable address. Anything but a
 * clear `block` (a failure, a store not connected) is `warn`: a checkout is never blocked by a doubt about the setting.
 */
export async function checkoutMode(s: Service, shop: string): Promise<'warn' | 'block'> {
  const answer = await call<{ mode?: string }>(`${s.api}/v1/checkout/settings?${new URLSearchParams({ shop })}`, {
    headers: { Authorization: `Bearer ${s.key}` },
  });
  return answer?.status === 200 && answer.body?.mode === 'block' ? 'block' : 'warn';
}

export type CheckoutEvent = 'prompt_shown' | 'suggestion_applied' | 'went_on_after_warning';

/** POST /v1/checkout/events: what the merchant's dashboard counts. Fire and forget. */
export function report(s: Service, shop: string, event: CheckoutEvent): void {
  void call(`${s.api}/v1/checkout/events`, { method: 'POST', headers: jsonHeaders(s.key), body: JSON.stringify({ shop, event }), keepalive: true });
}

/** Why the service doubts an order's shipping address (docs/shopify.md). */
export type DoubtReason = 'undeliverable' | 'ambiguous' | 'unit_missing';

/** Whether to ask the buyer about the order's address, and why. */
export interface OrderAddressQuestion {
  ask: boolean;
  reason: DoubtReason | null;
}

/**
 * Whether Shopify's session token names a signed-in customer (`sub`, a Customer GID). The service ties a token to an
 * order only through its customer (a token names no order), so a guest's page asks nothing: the link mailed to the
 * guest asks them. Read, not verified: the service verifies the token; this only spares calls that cannot succeed.
 */
export function namesCustomer(token: string): boolean {
  try {
    const payload = JSON.parse(atob((token.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: unknown };
    return typeof payload.sub === 'string' && payload.sub.startsWith('gid://shopify/Customer/');
  } catch {
    return false;
  }
}

/**
 * GET /shopify/orders/address-confirmation?order_id=…, with Shopify's session token. `pending` while the order is not
 * yet checked (404: its orders/create webhook may arrive after the thank-you page): the caller asks again later.
 */
export async function orderQuestion(s: Service, token: string, orderId: string): Promise<OrderAddressQuestion | 'pending' | null> {
  const answer = await call<OrderAddressQuestion>(`${s.api}/shopify/orders/address-confirmation?${new URLSearchParams({ order_id: orderId })}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (answer?.status === 404) return 'pending';
  return answer?.status === 200 && answer.body && typeof answer.body.ask === 'boolean' ? answer.body : null;
}

export interface AddressCorrection {
  address1: string;
  address2?: string;
  city: string;
  province_code?: string;
  zip: string;
  country_code: string;
}

export type AnswerOutcome = 'confirmed' | 'corrected' | 'undeliverable' | 'failed';

/** POST /shopify/orders/address-confirmation: the buyer confirms the address, or corrects it. */
export async function answerOrder(s: Service, token: string, orderId: string, address?: AddressCorrection): Promise<AnswerOutcome> {
  const body = address ? { order_id: orderId, action: 'correct', address } : { order_id: orderId, action: 'confirm' };
  const answer = await call<{ status?: string; type?: string }>(`${s.api}/shopify/orders/address-confirmation`, {
    method: 'POST', headers: jsonHeaders(token), body: JSON.stringify(body),
  });
  if (answer?.status === 200 && (answer.body?.status === 'confirmed' || answer.body?.status === 'corrected')) return answer.body.status;
  if (answer?.status === 422 && /address-undeliverable/.test(answer.body?.type ?? '')) return 'undeliverable';
  return 'failed';
}
