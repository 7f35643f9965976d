/**
 * The address check on checkout's delivery step (purchase.checkout.delivery-address.render-after; docs/shopify.md).
 * When the buyer's shipping address settles, it is checked with the store's publishable key; the extension then
 * offers the standardized address (one tap applies it), asks for a missing unit, or warns of an undeliverable
 * address, which in the store's "block" mode (its dashboard setting; where the merchant allowed the extension to
 * block in the checkout editor) stops the buyer until it is changed.
 * A slow or failed check shows nothing and never blocks.
 */
import '@shopify/ui-extensions/preact';
import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { addressRequestOf, NO_VERDICT, oneLine, verdictOf, type BuyerAddress, type Verdict } from '../../core/address-verdict.js';
import { checkAddress, checkoutMode, report, serviceOf, type Service } from '../../core/service.js';

/** The shipping address commits field by field: the check waits for it to settle. */
const SETTLE_MS = 400;

export default async () => {
  render(<AddressCheck />, document.body);
};

function AddressCheck() {
  const t = shopify.i18n.translate;
  const service = serviceOf(shopify.settings.value);
  const address = shopify.shippingAddress?.value;
  const requestKey = address ? JSON.stringify(addressRequestOf(address)) : '';
  const shop = shopify.shop.myshopifyDomain;

  const [verdict, setVerdict] = useState<Verdict>(NO_VERDICT);
  const [kept, setKept] = useState(false);
  const [applyFailed, setApplyFailed] = useState(false);
  // One check per distinct address, kept for the checkout: going back to an address asks nothing twice, and the
  // interceptor (which outlives renders) finds the check of the address on screen, under way or done.
  const checks = useRef(new Map<string, Promise<Verdict>>());
  const serviceNow = useRef(service);
  serviceNow.current = service;
  // The store's mode, from its dashboard settings: until it is known (or if it cannot be), the extension only warns.
  const [blocking, setBlocking] = useState(false);
  const blockingCheck = useRef<Promise<boolean>>(Promise.resolve(false));
  const verdictFor = (s: Service | null, a: BuyerAddress | undefined): Promise<Verdict> => {
    const parts = a ? addressRequestOf(a) : null;
    if (!s || !a || !parts) return Promise.resolve(NO_VERDICT);
    const key = JSON.stringify([s.api, parts]);
    let check = checks.current.get(key);
    if (!check) {
      check = checkAddress(s, parts).then((answer) => (answer ? verdictOf(answer, a) : NO_VERDICT));
      checks.current.set(key, check);
    }
    return check;
  };

  useEffect(() => {
    let live = true;
    blockingCheck.current = service ? checkoutMode(service, shop).then((mode) => mode === 'block') : Promise.resolve(false);
    void blockingCheck.current.then((b) => live && setBlocking(b));
    return () => {
      live = false;
    };
  }, [service?.api, service?.key]);

  useEffect(() => {
    setKept(false);
    setApplyFailed(false);
    setVerdict(NO_VERDICT);
    let live = true;
    const timer = setTimeout(() => {
      void verdictFor(service, address).then((v) => {
        if (!live) return;
        setVerdict(v);
        if (v.kind !== 'none' && service) report(service, shop, 'prompt_shown');
      });
    }, SETTLE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [requestKey, service?.api, service?.key]);

  useEffect(() => {
    let remove: (() => void) | undefined;
    let removed = false;
    void shopify.buyerJourney.intercept(async ({ canBlockProgress }) => {
      // Continue pressed: the address now in the form is checked at once (or its check awaited), for at most its timeout.
      const s = serviceNow.current;
      const [current, blocks] = await Promise.all([verdictFor(s, shopify.shippingAddress?.value), blockingCheck.current]);
      if (current.kind === 'undeliverable' && blocks && canBlockProgress) {
        return { behavior: 'block', reason: 'undeliverable shipping address', errors: [{ message: t('undeliverable.blocked') }] };
      }
      return {
        behavior: 'allow',
        perform: (result) => {
          if (result.behavior === 'allow' && current.kind !== 'none' && s) report(s, shop, 'went_on_after_warning');
        },
      };
    }).then((teardown) => (removed ? teardown() : (remove = teardown)));
    return () => {
      removed = true;
      remove?.();
    };
  }, []);

  const current = kept ? NO_VERDICT : verdict;
  if (current.kind === 'none') return null;
  if (current.kind === 'unit') return <s-banner tone="info" heading={t('unit.heading')}><s-text>{t('unit.body')}</s-text></s-banner>;
  if (current.kind === 'undeliverable') {
    const blocked = blocking && shopify.extension.capabilities.value.includes('block_progress');
    return (
      <s-banner tone={blocked ? 'critical' : 'warning'} heading={t('undeliverable.heading')}>
        <s-text>{t(blocked ? 'undeliverable.blocked' : 'undeliverable.warning')}</s-text>
      </s-banner>
    );
  }

  const { suggestion } = current;
  // Express wallets (Apple Pay, Google Pay) keep their own address: it can be shown, not changed.
  const canChange = shopify.instructions.value.delivery.canSelectCustomAddress && !!shopify.applyShippingAddressChange;
  const apply = async () => {
    const result = await shopify.applyShippingAddressChange!({ type: 'updateShippingAddress', address: suggestion });
    if (result.type === 'success') {
      if (service) report(service, shop, 'suggestion_applied');
      setKept(true);
    } else setApplyFailed(true);
  };
  return (
    <s-banner tone="warning" heading={t('suggest.heading')}>
      <s-stack gap="base">
        <s-text type="strong">{oneLine(suggestion)}</s-text>
        {applyFailed ? <s-text tone="critical">{t('suggest.apply_failed')}</s-text> : null}
        <s-stack direction="inline" gap="base">
          {canChange ? <s-button variant="primary" onClick={apply}>{t('suggest.apply')}</s-button> : null}
          <s-button variant="secondary" onClick={() => setKept(true)}>{t('suggest.keep')}</s-button>
        </s-stack>
      </s-stack>
    </s-banner>
  );
}
