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
  type CreatePaymentLink,
  type PaymentLink,
  type PaymentLinkList,
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

// A shop's backend making a link and reading its page's address.
function links(list: PaymentLinkList): string[] {
  const invoice: CreatePaymentLink = { description: "Invoice 42", amount: 1500, currency: "EUR" };
  const donation: CreatePaymentLink = {
    description: "Donation", currency: "EUR", min_amount: 500, max_amount: 50000,
    reusable: true, ask_email: "required", billing_fields: ["country", "postal_code"],
  };
  // @ts-expect-error: a link asks for a field as off, optional or required only
  const wrong: CreatePaymentLink = { description: "x", ask_email: "always" };
  console.log(invoice, donation, wrong);
  return list.data.filter((link: PaymentLink) => link.active).map((link) => link.url);
}
console.log(links);
