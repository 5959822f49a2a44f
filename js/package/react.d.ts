// JSX typings of <card-checkout> for React 19:
//   import type {} from "card-checkout/react";
// Attributes are the element's (kebab-case, strings); listen to its events through a ref
// (`ref.current.addEventListener("success", ...)`), typed by CardCheckoutElement.
import type { DetailedHTMLProps, HTMLAttributes } from "react";
import type { CardCheckoutAttributes, CardCheckoutElement } from "./index.js";

declare module "react" {
  namespace JSX {
    interface IntrinsicElements {
      "card-checkout": DetailedHTMLProps<HTMLAttributes<CardCheckoutElement>, CardCheckoutElement> &
        CardCheckoutAttributes;
    }
  }
}
