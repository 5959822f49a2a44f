// Compiled by `tsc -p js/package` (scripts/test.sh): uses every type the package declares the
// way a shop's TypeScript would, and fails the build when one of them stops fitting. The
// `@ts-expect-error` lines must stay errors: they prove the types refuse what they should.
import type {} from "./react.js";
import {
  loadCardCheckout,
  mount,
  unmount,
  type CardCheckout,
  type CardCheckoutElement,
  type ErrorDetail,
  type SuccessDetail,
} from "./index.js";

async function shop(host: HTMLElement): Promise<void> {
  const api: CardCheckout = await loadCardCheckout({ server: "https://pay.example.com" });
  const checkout: CardCheckoutElement = api.mount(host, {
    session: "cs_1",
    clientSecret: "secret",
    locale: "ar",
  });
  checkout.addEventListener("change", (event) => {
    const brand: string = event.detail.brand;
    const complete: boolean = event.detail.complete;
    console.log(brand, complete);
  });
  checkout.addEventListener("success", (event) => {
    const detail: SuccessDetail = event.detail;
    if ("payment_id" in detail) console.log(detail.amount, detail.currency);
    else console.log(detail.action, detail.status);
  });
  checkout.addEventListener("error", (event) => {
    const detail: ErrorDetail = event.detail;
    if (detail.code === "card_declined") console.log(detail.decline);
  });
  checkout.addEventListener("redirect", (event) => {
    event.preventDefault();
    location.assign(event.detail.url);
  });
  checkout.setLocale("pt-BR");
  const found: CardCheckoutElement | null = document.querySelector("card-checkout");
  unmount(found);
  mount(host, { mode: "subscriptions", customerToken: "ct_1" }).unmount();
  // @ts-expect-error: not a mode
  mount(host, { mode: "admin" });
  // @ts-expect-error: options are camel-cased
  mount(host, { "client-secret": "secret" });
  // @ts-expect-error: the server is required
  await loadCardCheckout({});
}

// React 19 JSX: the element and its attributes.
const element = (
  <card-checkout session="cs_1" client-secret="secret" locale="he" mode="checkout" />
);
// @ts-expect-error: not an attribute of the element
const wrong = <card-checkout sesion="cs_1" />;

export { shop, element, wrong };
