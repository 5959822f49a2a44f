// The shop's backend (here the demo shop's, forwarded by Vite): a checkout session for the
// teapot, or the order 3-D Secure returned to. Its answer names checkout-server too.
export interface Order {
  id: string;
  client_secret: string;
  server: string;
}

export async function fetchOrder(returned: string | null): Promise<Order> {
  const response = returned
    ? await fetch(`/demo/orders/${encodeURIComponent(returned)}`)
    : await fetch("/demo/sessions", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ item: "teapot", guest: true }),
      });
  if (!response.ok) throw new Error(`the shop's backend answered ${response.status}`);
  return (await response.json()) as Order;
}
