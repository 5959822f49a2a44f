// <card-checkout> as a React 19 component: attributes in JSX (typed by card-checkout/react),
// events through a ref, typed by CardCheckoutElement.
import { useEffect, useRef } from "react";
import type {} from "card-checkout/react";
import type { CardCheckoutElement, CardCheckoutEventMap, Mode } from "card-checkout";

type Listeners = { [K in keyof CardCheckoutEventMap]?: (event: CardCheckoutEventMap[K]) => void };

export function Checkout(props: { session: string; clientSecret: string; mode: Mode; on: Listeners }) {
  const ref = useRef<CardCheckoutElement>(null);
  const { on } = props;
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const entries = Object.entries(on) as [keyof CardCheckoutEventMap, EventListener][];
    for (const [name, listener] of entries) element.addEventListener(name, listener);
    return () => {
      for (const [name, listener] of entries) element.removeEventListener(name, listener);
    };
  }, [on]);
  return (
    <card-checkout ref={ref} session={props.session} client-secret={props.clientSecret} mode={props.mode} />
  );
}
