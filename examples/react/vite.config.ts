// Vite for the React example: JSX compiled by Vite itself (tsconfig's "jsx": "react-jsx"; no
// React plugin, so no Fast Refresh, and nothing beyond Vite to install); /demo/* forwarded to
// the demo shop's backend (DEMO_SHOP, default http://127.0.0.1:8081) as the page's own
// requests, the way a shop's backend shares its page's origin.
import { defineConfig } from "vite";

const backend = process.env.DEMO_SHOP || "http://127.0.0.1:8081";

export default defineConfig({
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
