// The Vue shop: one page, the teapot's checkout (or, back from 3-D Secure, the order's result).
// <card-checkout> is used in the template as the custom element it is (isCustomElement
// below), its events with @ready, @success, @error.
import { createApp, defineComponent, onMounted, ref } from "vue";
import { loadCardCheckout, type ErrorDetail } from "card-checkout";
import { fetchOrder, type Order } from "./order";

const returned = new URLSearchParams(location.search).get("session_id");

const Shop = defineComponent({
  setup() {
    const order = ref<Order | null>(null);
    const outcome = ref("");
    const events = ref<string[]>([]);
    const mode = returned ? "result" : "checkout";
    onMounted(async () => {
      try {
        const found = await fetchOrder(returned);
        await loadCardCheckout({ server: found.server });
        order.value = found;
      } catch (error) {
        outcome.value = (error as Error).message;
      }
    });
    const seen = (name: string) => (event: CustomEvent) => {
      events.value.push(`${name} ${JSON.stringify(event.detail)}`);
    };
    const paid = (event: CustomEvent) => {
      seen("success")(event);
      outcome.value = "Thank you: your teapot is on its way.";
    };
    const failed = (event: CustomEvent<ErrorDetail>) => {
      seen("error")(event);
      outcome.value = event.detail.message;
    };
    return { order, outcome, events, mode, ready: seen("ready"), paid, failed };
  },
  template: `
    <main style="max-width: 480px; margin: 32px auto; font-family: system-ui, sans-serif">
      <h1>Tea shop</h1>
      <p id="order">Teapot</p>
      <card-checkout v-if="order" :session="order.id" :client-secret="order.client_secret"
        :mode="mode" @ready="ready" @success="paid" @error="failed"></card-checkout>
      <p v-if="outcome" id="outcome" role="status">{{ outcome }}</p>
      <h2>Events</h2>
      <ol id="events"><li v-for="(line, at) in events" :key="at">{{ line }}</li></ol>
    </main>`,
});

const app = createApp(Shop);
app.config.compilerOptions.isCustomElement = (tag) => tag === "card-checkout";
app.mount("#app");
