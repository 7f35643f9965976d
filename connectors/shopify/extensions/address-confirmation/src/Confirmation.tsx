/**
 * After the purchase, on every plan: the thank-you page (purchase.thank-you.customer-information.render-after) and the
 * order status page (customer-account.order-status.customer-information.render-after) ask the buyer to confirm or
 * correct a doubtful shipping address (docs/shopify.md). The service decides which orders are doubtful (it checked
 * the order from its orders/create webhook) and writes a correction to the order; the extension authenticates with
 * Shopify's session token, so a signed-in buyer can only ever answer for their own orders of the store they bought
 * from. A guest's token names no customer and reaches no order: a guest answers through the link mailed to them.
 */
import '@shopify/ui-extensions/preact';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { oneLine, type BuyerAddress } from '../../core/address-verdict.js';
import { answerOrder, namesCustomer, orderQuestion, serviceOf, type AddressCorrection, type AnswerOutcome, type DoubtReason } from '../../core/service.js';

/** The webhook that checks an order may land after the thank-you page opens: ask again after these waits. */
const RETRIES_MS = [1500, 3000, 6000, 12000];

export default async () => {
  render(<Confirmation />, document.body);
};

/** The order's GID on either page. */
function orderIdOf(): string | undefined {
  if ('orderConfirmation' in shopify) return shopify.orderConfirmation.value?.order.id;
  return shopify.order.value?.id;
}

type Step =
  | { name: 'quiet' }
  | { name: 'ask'; reason: DoubtReason }
  | { name: 'edit'; reason: DoubtReason }
  | { name: 'sending' }
  | { name: 'done'; outcome: AnswerOutcome; reason: DoubtReason };

function Confirmation() {
  const t = shopify.i18n.translate;
  const service = serviceOf(shopify.settings.value, false);
  const orderId = orderIdOf();
  const address: BuyerAddress | undefined = shopify.shippingAddress?.value;
  const [step, setStep] = useState<Step>({ name: 'quiet' });

  useEffect(() => {
    if (!service || !orderId) return;
    let stopped = false;
    void (async () => {
      // A guest's token reaches no order (the service ties a token to an order through its customer): the mailed link asks.
      if (!namesCustomer(await shopify.sessionToken.get())) return;
      for (let attempt = 0; !stopped; attempt++) {
        const question = await orderQuestion(service, await shopify.sessionToken.get(), orderId);
        if (question === 'pending' && attempt < RETRIES_MS.length) {
          await new Promise((r) => setTimeout(r, RETRIES_MS[attempt]));
          continue;
        }
        if (!stopped && question && question !== 'pending' && question.ask && question.reason) setStep({ name: 'ask', reason: question.reason });
        return;
      }
    })();
    return () => {
      stopped = true;
    };
  }, [service?.api, orderId]);

  if (!service || !orderId || step.name === 'quiet') return null;

  const send = async (reason: DoubtReason, correction?: AddressCorrection) => {
    setStep({ name: 'sending' });
    const outcome = await answerOrder(service, await shopify.sessionToken.get(), orderId, correction);
    setStep({ name: 'done', outcome, reason });
  };

  if (step.name === 'done') {
    const ok = step.outcome === 'confirmed' || step.outcome === 'corrected';
    return (
      <s-banner tone={ok ? 'success' : 'critical'} heading={t(`outcome.${step.outcome}`)}>
        {ok ? null : <s-button variant="secondary" onClick={() => setStep({ name: 'edit', reason: step.reason })}>{t('edit.again')}</s-button>}
      </s-banner>
    );
  }
  if (step.name === 'edit') {
    const { reason } = step;
    return <AddressForm initial={address} onSubmit={(c) => send(reason, c)} onCancel={() => setStep({ name: 'ask', reason })} />;
  }
  const sending = step.name === 'sending';
  const reason = step.name === 'ask' ? step.reason : 'undeliverable';
  return (
    <s-banner tone="warning" heading={t('ask.heading')}>
      <s-stack gap="base">
        <s-text>{t(`ask.${reason}`)}</s-text>
        <s-text type="strong">{address ? oneLine(address) : ''}</s-text>
        <s-stack direction="inline" gap="base">
          <s-button variant="primary" disabled={sending} onClick={() => send(reason)}>{t('ask.confirm')}</s-button>
          <s-button variant="secondary" disabled={sending} onClick={() => setStep({ name: 'edit', reason })}>{t('ask.edit')}</s-button>
        </s-stack>
      </s-stack>
    </s-banner>
  );
}

const FIELDS = ['address1', 'address2', 'city', 'provinceCode', 'zip'] as const;

function AddressForm(props: { initial: BuyerAddress | undefined; onSubmit: (c: AddressCorrection) => void; onCancel: () => void }) {
  const t = shopify.i18n.translate;
  const [value, setValue] = useState<BuyerAddress>({ ...props.initial });
  const complete = !!(value.address1?.trim() && value.city?.trim() && value.zip?.trim());
  const submit = () => props.onSubmit({
    address1: value.address1!.trim(), address2: value.address2?.trim() || undefined, city: value.city!.trim(),
    province_code: value.provinceCode?.trim() || undefined, zip: value.zip!.trim(), country_code: props.initial?.countryCode || 'US',
  });
  return (
    <s-banner tone="info" heading={t('edit.heading')}>
      <s-stack gap="base">
        {FIELDS.map((field) => (
          <s-text-field
            key={field}
            name={field}
            label={t(`edit.${field}`)}
            value={value[field] ?? ''}
            required={field !== 'address2' && field !== 'provinceCode'}
            onChange={(e) => setValue({ ...value, [field]: (e.currentTarget as unknown as { value: string }).value })}
          />
        ))}
        <s-stack direction="inline" gap="base">
          <s-button variant="primary" disabled={!complete} onClick={submit}>{t('edit.submit')}</s-button>
          <s-button variant="secondary" onClick={props.onCancel}>{t('edit.cancel')}</s-button>
        </s-stack>
      </s-stack>
    </s-banner>
  );
}
