// card-checkout: the ES module entry. Importing it defines <card-checkout> and
// window.CardCheckout (./checkout.js, the loader checkout-server also serves as /checkout.js);
// loadCardCheckout({ server }) names the checkout-server the form's frame comes from.
import "./checkout.js";

const api = () => window.CardCheckout;

/**
 * Names the checkout-server of every `<card-checkout>` without a `server` attribute, warms up
 * the connection to it, and resolves to the `CardCheckout` API.
 */
export function loadCardCheckout(config) {
  try {
    api().configure(config || {});
    return Promise.resolve(api());
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Renders the card form into `element`; returns the `<card-checkout>` element it made. */
export function mount(element, options) {
  return api().mount(element, options);
}

/** Removes a form `mount` made. */
export function unmount(checkout) {
  api().unmount(checkout);
}
