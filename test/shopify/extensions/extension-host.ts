/**
 * A stand-in of Shopify's extension host for the browser tests: the `shopify` global a UI extension of API version
 * 2026-07 sees (@shopify/ui-extensions' types are the reference), installed in the page before the extension's bundle
 * runs. Signals are built from the bundle's own Preact Signal class, handed over by `setSignals` as Shopify's host
 * does; `shopify.extend` registers each target, and the test runs one with `extensionHost.run()`.
 *
 * What Shopify's host does and this one does not: run the bundle in a Web Worker and mirror its components into
 * checkout's UI (Remote DOM). Here Preact renders the `s-*` elements into the page itself, where the test reads and
 * clicks them.
 *
 * `installExtensionHost` is serialized into the page (Playwright's addInitScript): it uses nothing from outside itself.
 */

export interface HostInit {
  /** The target the test runs. */
  target: string;
  settings: Record<string, unknown>;
  /** The extension's default locale file (locales/en.default.json), for `i18n.translate`. */
  locale: Record<string, unknown>;
  shop: string;
  shippingAddress?: Record<string, unknown>;
  /** false: an express wallet's address, which applyShippingAddressChange may not change. */
  canSelectCustomAddress?: boolean;
  capabilities?: string[];
  /** The session token `sessionToken.get()` resolves to. */
  sessionToken?: string;
  /** The order on the thank-you page (`orderConfirmation`) or the order status page (`order`). */
  order?: { id: string; page: 'thank-you' | 'order-status' };
  /** For the address-autocomplete targets: `shopify.target`. */
  autocompleteTarget?: Record<string, unknown>;
}

interface SignalLike<T> {
  value: T;
}

/** What a test reads and drives in the page, as `globalThis.extensionHost`. */
export interface ExtensionHost {
  /** Runs the target: its return value (an autocomplete answer), or undefined once a render target has rendered. */
  run(): Promise<unknown>;
  /** The buyer presses Continue: every interceptor answers, then each one's `perform` hears the outcome. */
  continueJourney(canBlockProgress: boolean): Promise<{ behavior: 'allow' | 'block'; reasons: string[]; errors: unknown[] }>;
  /** The buyer changes the shipping address in checkout's form. */
  setShippingAddress(address: Record<string, unknown>): void;
  /** Every change the extension applied with applyShippingAddressChange. */
  applied: unknown[];
  interceptors: number;
}

export function installExtensionHost(init: HostInit): void {
  type Interceptor = (props: { canBlockProgress: boolean }) => Promise<InterceptorAnswer> | InterceptorAnswer;
  interface InterceptorAnswer {
    behavior: 'allow' | 'block';
    reason?: string;
    errors?: unknown[];
    perform?: (result: { behavior: 'allow' | 'block' }) => void;
  }
  const targets: Record<string, (...args: unknown[]) => unknown> = {};
  const interceptors = new Set<Interceptor>();
  const applied: unknown[] = [];
  let shippingAddress: SignalLike<Record<string, unknown> | undefined> | undefined;

  const translate = (key: string, replacements: Record<string, unknown> = {}): string => {
    const found = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], init.locale);
    if (typeof found !== 'string') throw new Error(`no translation for ${key}`);
    return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(replacements[name] ?? ''));
  };

  const shopify: Record<string, unknown> = {
    extend(target: string, run: (...args: unknown[]) => unknown) {
      targets[target] = run;
    },
    // Shopify's host builds every subscribable value with the extension's own Signal class (@shopify/ui-extensions/preact).
    setSignals(Signal: new <T>(value: T) => SignalLike<T>) {
      shippingAddress = new Signal(init.shippingAddress);
      Object.assign(shopify, {
        settings: new Signal(init.settings),
        shippingAddress,
        instructions: new Signal({ delivery: { canSelectCustomAddress: init.canSelectCustomAddress ?? true } }),
        extension: { target: init.target, apiVersion: '2026-07', capabilities: new Signal(init.capabilities ?? ['network_access']) },
        ...(init.order?.page === 'thank-you' ? { orderConfirmation: new Signal({ order: { id: init.order.id }, isFirstOrder: true }) } : {}),
        ...(init.order?.page === 'order-status' ? { order: new Signal({ id: init.order.id, name: '#1001' }) } : {}),
      });
    },
    shop: { myshopifyDomain: init.shop, name: init.shop, id: 'gid://shopify/Shop/1' },
    i18n: { translate },
    sessionToken: { get: async () => init.sessionToken ?? '' },
    buyerJourney: {
      intercept: async (interceptor: Interceptor) => {
        interceptors.add(interceptor);
        return () => interceptors.delete(interceptor);
      },
    },
    async applyShippingAddressChange(change: { type: string; address: Record<string, unknown> }) {
      if (!(init.canSelectCustomAddress ?? true)) return { type: 'error', errors: [{ message: 'accelerated checkout' }] };
      applied.push(change);
      if (shippingAddress) shippingAddress.value = { ...shippingAddress.value, ...change.address };
      return { type: 'success', errors: null };
    },
  };
  // The address-autocomplete targets are runnable, not rendered: their API is plain values, no signals.
  if (init.autocompleteTarget) {
    Object.assign(shopify, { target: init.autocompleteTarget, signal: new AbortController().signal, settings: init.settings });
  }

  const host: ExtensionHost = {
    async run() {
      const run = targets[init.target];
      if (!run) throw new Error(`the bundle registered no ${init.target} (it registered ${Object.keys(targets).join(', ')})`);
      return run();
    },
    async continueJourney(canBlockProgress) {
      const answers = await Promise.all([...interceptors].map((i) => i({ canBlockProgress })));
      const behavior = answers.some((a) => a.behavior === 'block') ? 'block' : 'allow';
      for (const a of answers) a.perform?.({ behavior });
      return {
        behavior,
        reasons: answers.flatMap((a) => (a.reason ? [a.reason] : [])),
        errors: answers.flatMap((a) => a.errors ?? []),
      };
    },
    setShippingAddress(address) {
      if (shippingAddress) shippingAddress.value = address;
    },
    applied,
    get interceptors() {
      return interceptors.size;
    },
  };
  Object.assign(globalThis, { shopify, extensionHost: host });
}
