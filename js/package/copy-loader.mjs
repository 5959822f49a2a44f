// `npm pack` / `npm publish` (prepack): copies the loader checkout-server serves as
// /checkout.js (../loader.min.js, minified from ../loader.js, the one source) into the package
// as checkout.js.
import { copyFileSync } from "node:fs";

copyFileSync(new URL("../loader.min.js", import.meta.url), new URL("./checkout.js", import.meta.url));
