// Types of the card-checkout package: the <card-checkout> element, its attributes, events and
// methods, CardCheckout.mount, and loadCardCheckout. React 19 JSX typings: "card-checkout/react".

/** A language of the form; any other BCP 47 tag falls back to English. */
export type Locale =
  | "en" | "de" | "fr" | "es" | "it" | "nl" | "pt" | "pl" | "sv" | "ja" | "zh" | "ar" | "he"
  | (string & {});

/** What the element shows. */
export type Mode = "checkout" | "result" | "subscriptions";

/**
 * Where 3-D Secure happens: `dialog` (the default) shows the bank's page in a dialog on your
 * page, which never navigates (frictionless cards show nothing); `redirect` sends the whole
 * window to the bank's page and back to your `SUCCESS_URL` / `DECLINE_URL`.
 */
export type ThreeDSecure = "dialog" | "redirect";

/** Card brands, as `change` reports them while the number is typed. */
export type Brand =
  | "visa" | "mastercard" | "amex" | "discover" | "diners_club" | "jcb" | "unionpay" | "maestro"
  | "mir" | "elo" | "rupay" | "interac" | "cartes_bancaires" | "unknown";

/** Options of `mount` (the element's attributes, camel-cased). */
export interface CardCheckoutOptions {
  /** Checkout session id (modes `checkout`, `result`). */
  session?: string;
  /** The session's client secret (modes `checkout`, `result`); never put it in a URL. */
  clientSecret?: string;
  /** Base URL of checkout-server; default the one `loadCardCheckout` named. */
  server?: string;
  /** Language; default `navigator.language`. Arabic and Hebrew lay out right to left. */
  locale?: Locale;
  /** Default `checkout`. */
  mode?: Mode;
  /** Mode `subscriptions`: a token from `POST /v1/customers/{id}/tokens`. */
  customerToken?: string;
  /** Default `dialog`. */
  threeDSecure?: ThreeDSecure;
}

/** The element's attributes (HTML, JSX). */
export interface CardCheckoutAttributes {
  session?: string;
  "client-secret"?: string;
  server?: string;
  locale?: Locale;
  mode?: Mode;
  "customer-token"?: string;
  "three-d-secure"?: ThreeDSecure;
}

/** Theme: CSS custom properties set on the element (or inherited by it). */
export type CardCheckoutThemeProperty =
  | "--cc-font" | "--cc-font-size" | "--cc-text" | "--cc-muted" | "--cc-background"
  | "--cc-surface" | "--cc-border" | "--cc-accent" | "--cc-accent-text" | "--cc-error"
  | "--cc-success" | "--cc-radius" | "--cc-spacing" | "--cc-focus";

/** `ready`: the form (or the result, or the subscriptions) is on screen and usable. */
export interface ReadyDetail {
  mode: Mode;
}

/** `change`: never card data, only what the page may show or act on. */
export interface ChangeDetail {
  brand: Brand;
  /** Every required field is filled and valid. */
  complete: boolean;
  /** Nothing typed yet. */
  empty: boolean;
  /** A saved card is chosen instead of a new one. */
  saved_card: boolean;
}

/** `submit`: the shopper pressed pay and the fields are valid; the payment is on its way. */
export interface SubmitDetail {
  saved_card: boolean;
}

export type PaymentState =
  | "created" | "pending" | "authorized" | "captured" | "declined" | "failed"
  | "partially_refunded" | "refunded" | "voided" | "needs_review";

export type DeclineCode =
  | "do_not_honour" | "insufficient_funds" | "expired_card" | "lost_or_stolen"
  | "issuer_unavailable" | "risk_rejected" | "authentication_failed" | "other";

/** `success` in modes `checkout` and `result`: the payment went through. */
export interface PaymentSuccessDetail {
  payment_id: string;
  state: PaymentState;
  /** Minor units of `currency` (cents for EUR, yen for JPY). */
  amount: number;
  currency: string;
  /** The subscription the payment started, for a plan's session. */
  subscription_id?: string;
}

/** `success` in mode `subscriptions`: the customer paused, resumed or cancelled one. */
export interface SubscriptionActionDetail {
  action: "pause" | "resume" | "cancel";
  subscription_id: string;
  status: "active" | "paused" | "cancelled" | "expired";
}

export type SuccessDetail = PaymentSuccessDetail | SubscriptionActionDetail;

/** Why an `error` was sent. */
export type ErrorCode =
  | "card_declined" | "card_refused" | "payment_failed" | "network" | "server" | "rate_limited"
  | "payment_in_progress" | "session_paid" | "three_ds_cancelled"
  | "invalid_redirect" | "invalid_options" | "load_failed" | "action_failed"
  | "frame_unavailable";

/** `error`: `message` is what the shopper reads, in their language. */
export interface ErrorDetail {
  code: ErrorCode;
  message: string;
  decline?: DeclineCode;
  /** `frame_unavailable`: why, for the shop's developer (also on the console). */
  developerMessage?: string;
  /** `frame_unavailable`: this page's origin, which checkout-server did not let frame the form. */
  origin?: string;
  /** `frame_unavailable`: the checkout-server's origin. */
  server?: string;
}

/**
 * `redirect` (cancelable): 3-D Secure in the whole window (`three-d-secure="redirect"`, or the
 * dialog's "open your bank's page instead" link). Call `preventDefault()` to navigate yourself.
 */
export interface RedirectDetail {
  url: string;
}

/**
 * `processing`: the payment is under way and its outcome not known yet (the gateway did not
 * answer in time, or the bank has not). `state` is `pending`; `success` or `error` may follow
 * while the form keeps asking, else follow the payment on your server (its events, or
 * `GET /v1/payments/{payment_id}`). Never send the shopper to pay again meanwhile.
 */
export interface ProcessingDetail {
  payment_id: string;
  state: "created" | "pending";
  amount: number;
  currency: string;
}

export interface CardCheckoutEventMap {
  ready: CustomEvent<ReadyDetail>;
  change: CustomEvent<ChangeDetail>;
  submit: CustomEvent<SubmitDetail>;
  processing: CustomEvent<ProcessingDetail>;
  success: CustomEvent<SuccessDetail>;
  error: CustomEvent<ErrorDetail>;
  redirect: CustomEvent<RedirectDetail>;
}

/** `<card-checkout>`: its events bubble out of shadow roots (`composed`). */
export interface CardCheckoutElement extends HTMLElement {
  /** Switches the language; what was typed stays. */
  setLocale(tag: Locale): void;
  /** Removes the form from the page. */
  unmount(): void;
  addEventListener<K extends keyof CardCheckoutEventMap>(
    type: K,
    listener: (this: CardCheckoutElement, event: CardCheckoutEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends keyof CardCheckoutEventMap>(
    type: K,
    listener: (this: CardCheckoutElement, event: CardCheckoutEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
}

/** Settings of `loadCardCheckout` and `CardCheckout.configure`. */
export interface CardCheckoutConfig {
  /** Base URL of your checkout-server, such as "https://pay.example.com". */
  server: string;
}

/** `window.CardCheckout`. */
export interface CardCheckout {
  mount(element: Element, options?: CardCheckoutOptions): CardCheckoutElement;
  unmount(checkout: CardCheckoutElement | null | undefined): void;
  configure(config: CardCheckoutConfig): void;
}

/**
 * A payment link as your backend reads it from the merchant API (`/v1/payment_links`): a page
 * on your checkout-server (`url`) where payers pay without a page of yours. Each payment
 * through it is an ordinary session and payment carrying `payment_link_id`.
 */
export interface PaymentLink {
  /** `plink_…`. */
  id: string;
  /** The page to send to payers (`<server>/pay/<256-bit public id>`). */
  url: string;
  description: string;
  currency: string;
  currency_exponent: number;
  /** The fixed amount in minor units; `null` when the payer chooses. */
  amount: number | null;
  min_amount: number | null;
  max_amount: number | null;
  quantity_max: number | null;
  /** Several payments (a product) or one only (an invoice). */
  reusable: boolean;
  payment_limit: number | null;
  expires_at: string | null;
  ask_email: PaymentLinkAsk;
  ask_payer_reference: PaymentLinkAsk;
  billing_fields: PaymentLinkBillingField[];
  after_payment: "receipt" | "redirect";
  redirect_url: string | null;
  plan_id: string | null;
  active: boolean;
  views: number;
  created_at: string;
  deactivated_at: string | null;
}

/** Whether a link's page asks for something. */
export type PaymentLinkAsk = "off" | "optional" | "required";

/** A billing address field a link's card form asks for. */
export type PaymentLinkBillingField =
  | "country" | "email" | "phone" | "address" | "city" | "state" | "postal_code";

/**
 * The body of `POST /v1/payment_links`: either `amount`, or `min_amount` and `max_amount`
 * (the payer chooses); with `plan_id`, the plan's amount and currency.
 */
export interface CreatePaymentLink {
  description: string;
  currency?: string | null;
  amount?: number | null;
  min_amount?: number | null;
  max_amount?: number | null;
  quantity_max?: number | null;
  reusable?: boolean | null;
  payment_limit?: number | null;
  expires_at?: string | null;
  ask_email?: PaymentLinkAsk | null;
  ask_payer_reference?: PaymentLinkAsk | null;
  billing_fields?: PaymentLinkBillingField[] | null;
  /** After paying, the payer goes here instead of the receipt, with `payment_link_id`,
   * `session_id` and `payment_id` added to its query. */
  redirect_url?: string | null;
  plan_id?: string | null;
}

/** `GET /v1/payment_links`: a page of links, newest first. */
export interface PaymentLinkList {
  data: PaymentLink[];
  has_more: boolean;
  next_cursor: string | null;
}

/** Names your checkout-server and resolves to the `CardCheckout` API. */
export function loadCardCheckout(config: CardCheckoutConfig): Promise<CardCheckout>;

/** Renders the card form into `element`; returns the `<card-checkout>` element it made. */
export function mount(element: Element, options?: CardCheckoutOptions): CardCheckoutElement;

/** Removes a form `mount` made. */
export function unmount(checkout: CardCheckoutElement | null | undefined): void;

declare global {
  interface HTMLElementTagNameMap {
    "card-checkout": CardCheckoutElement;
  }
  interface Window {
    CardCheckout?: CardCheckout;
  }
}
