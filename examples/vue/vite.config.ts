// Vite for the Vue example (templates compiled in the browser: vue's full build): /demo/* goes
// to the demo shop's backend (DEMO_SHOP, default http://127.0.0.1:8081) as the page's own
// requests, the way a shop's backend shares its page's origin.
import { defineConfig } from "vite";

const backend = process.env.DEMO_SHOP || "http://127.0.0.1:8081";

export default defineConfig({
  resolve: { alias: { vue: "vue/dist/vue.esm-bundler.js" } },
  server: {
    proxy: {
      "/demo": {
        target: backend,
        changeOrigin: true,
        headers: { origin: backend },
      },
    },
  },
});
