// The `shopify` global each module sees, per target (as `shopify app dev` generates it). One module serves both
// pages, so it sees either API.
import '@shopify/ui-extensions';

//@ts-ignore
declare module './src/Confirmation.tsx' {
  const shopify:
    | import('@shopify/ui-extensions/purchase.thank-you.customer-information.render-after').Api
    | import('@shopify/ui-extensions/customer-account.order-status.customer-information.render-after').Api;
  const globalThis: { shopify: typeof shopify };
}
