// `npm pack` / `npm publish` (prepack): copies the loader checkout-server serves as
// /checkout.js (../loader.js, the one source) into the package as checkout.js.
import { copyFileSync } from "node:fs";

copyFileSync(new URL("../loader.js", import.meta.url), new URL("./checkout.js", import.meta.url));
