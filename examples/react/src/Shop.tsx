// The page: the order, the card form, what happened.
import { useEffect, useMemo, useState } from "react";
import { loadCardCheckout } from "card-checkout";
import { Checkout } from "./Checkout";
import { fetchOrder, type Order } from "./order";

const returned = new URLSearchParams(location.search).get("session_id");

export function Shop() {
  const [order, setOrder] = useState<Order | null>(null);
  const [outcome, setOutcome] = useState("");
  const [events, setEvents] = useState<string[]>([]);

  useEffect(() => {
    let live = true;
    fetchOrder(returned)
      .then(async (found) => {
        await loadCardCheckout({ server: found.server });
        if (live) setOrder(found);
      })
      .catch((error: Error) => setOutcome(error.message));
    return () => {
      live = false;
    };
  }, []);

  const on = useMemo(
    () => ({
      ready: (event: CustomEvent) => setEvents((seen) => [...seen, `ready ${JSON.stringify(event.detail)}`]),
      success: (event: CustomEvent) => {
        setEvents((seen) => [...seen, `success ${JSON.stringify(event.detail)}`]);
        setOutcome("Thank you: your teapot is on its way.");
      },
      error: (event: CustomEvent<{ message: string }>) => {
        setEvents((seen) => [...seen, `error ${JSON.stringify(event.detail)}`]);
        setOutcome(event.detail.message);
      },
    }),
    [],
  );

  return (
    <main style={{ maxWidth: 480, margin: "32px auto", fontFamily: "system-ui, sans-serif" }}>
      <h1>Tea shop</h1>
      <p id="order">Teapot</p>
      {order && (
        <Checkout
          session={order.id}
          clientSecret={order.client_secret}
          mode={returned ? "result" : "checkout"}
          on={on}
        />
      )}
      {outcome && (
        <p id="outcome" role="status">
          {outcome}
        </p>
      )}
      <h2>Events</h2>
      <ol id="events">
        {events.map((line, at) => (
          <li key={at}>{line}</li>
        ))}
      </ol>
    </main>
  );
}
