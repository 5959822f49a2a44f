// Checks the code snippets a shop developer copies from the READMEs against the npm package as
// packed (target/npm/card-checkout-<version>.tgz), so a snippet that drifts from the API fails
// the build (scripts/npm-package.sh runs it, in `make test`). Both READMEs are checked in one
// shop project and one tsc run:
//   - ts, tsx: each is a module of its own, type-checked with tsc --noEmit (strict) against the
//     packed package and React's types (tools/node_modules), as a shop's TypeScript would;
//   - html: each is type-checked as JSX against the package's <card-checkout> typings
//     (card-checkout/react), which know its attributes;
//   - js: a classic script after <script src=".../checkout.js">: checked (checkJs, not strict,
//     as an editor checks plain JavaScript) with the global CardCheckout typed as the package
//     types `window.CardCheckout`;
//   - sh in js/package/README.md: an `npm install` of a tarball must name the file
//     scripts/npm-package.sh writes;
//   - sh, python, toml in README.md: run against a real checkout-server by the Rust test
//     server/tests/it/readme (cargo test), which fails on a language it does not know;
//   - text: not code (the layout tree);
//   - every snippet: a client secret (`cs_…`) given as the session id is refused.
// Any other fenced language fails: add a check for it here.
//
// Usage: node scripts/readme-snippets.mjs   (after the tarball is packed)
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(root, "js/package/package.json"), "utf8"));
const tarballName = `${pkg.name}-${pkg.version}.tgz`;
const tarball = join(root, "target/npm", tarballName);
const work = join(root, "target/npm/readme-check");
const failures = [];

/** The fenced blocks of `text`: `{ lang, line, code }`, `line` the first code line (1-based). */
function snippets(text, name) {
  const found = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    if (end < 0) throw new Error(`${name}:${i + 1}: unclosed code fence`);
    found.push({ lang: open[1], line: i + 2, code: lines.slice(i + 1, end).join("\n") });
    i = end;
  }
  return found;
}

/** A module snippet (ts, tsx): `export {}` keeps one without imports a module of its own. */
const asModule = (snippet) => `${snippet.code}\nexport {};\n`;

/** An html snippet as JSX, typed by the package's <card-checkout> typings. */
const asJsx = (snippet) =>
  `import type {} from "card-checkout/react";\nexport const page = (\n<>\n${snippet.code}\n</>\n);\n`;

/** A classic script after checkout.js's <script> tag, which defines window.CardCheckout. */
const asClassicScript = (snippet) =>
  `/** @typedef {import("card-checkout").CardCheckout} LoadsThePackageTypes */\n` +
  `const CardCheckout = /** @type {NonNullable<Window["CardCheckout"]>} */ (window.CardCheckout);\n` +
  `${snippet.code}\nexport {};\n`;

/** The package README's `npm install` names the tarball scripts/npm-package.sh writes. */
function installsTheTarball(snippet, at) {
  for (const install of snippet.code.matchAll(/npm install (\S+\.tgz)/g)) {
    if (!install[1].endsWith(`target/npm/${tarballName}`)) {
      failures.push(`${at}: installs ${install[1]}, but the package is packed as target/npm/${tarballName}`);
    }
  }
}

const inRustTest = "run by server/tests/it/readme";
/** Per README and fenced language: `[extension, wrap, project]` to type-check, or a check of
 * its own (a function), or where else it is checked (a string). */
const readmes = {
  "js/package/README.md": {
    ts: ["ts", asModule, "strict"],
    tsx: ["tsx", asModule, "strict"],
    html: ["html.tsx", asJsx, "strict"],
    sh: installsTheTarball,
  },
  "README.md": {
    ts: ["ts", asModule, "strict"],
    html: ["html.tsx", asJsx, "strict"],
    js: ["js", asClassicScript, "script"],
    sh: inRustTest,
    python: inRustTest,
    toml: inRustTest,
    text: "not code",
  },
};

if (!existsSync(tarball)) {
  console.error(`[readme] ${relative(root, tarball)} missing: run scripts/npm-package.sh`);
  process.exit(1);
}
// A shop's project: the packed package and React's types under node_modules.
rmSync(work, { recursive: true, force: true });
mkdirSync(join(work, "node_modules/card-checkout"), { recursive: true });
mkdirSync(join(work, "node_modules/@types"), { recursive: true });
execFileSync("tar", ["-xzf", tarball, "-C", join(work, "node_modules/card-checkout"), "--strip-components=1"]);
symlinkSync(join(root, "tools/node_modules/@types/react"), join(work, "node_modules/@types/react"));

/** Files to type-check per project: "strict" (TypeScript, JSX) and "script" (plain JavaScript). */
const typed = { strict: [], script: [] };
for (const [readme, rules] of Object.entries(readmes)) {
  // Files are named after the README and the snippet's first line: readme-line-112.ts.
  const prefix = readme.replace(/\W+/g, "-").replace(/-md$/, "").toLowerCase();
  for (const snippet of snippets(readFileSync(join(root, readme), "utf8"), readme)) {
    const at = `${readme}:${snippet.line}`;
    if (/session\s*[=:]\s*["']cs_/.test(snippet.code)) {
      failures.push(`${at}: a client secret (cs_…) is given as the session id`);
    }
    const rule = rules[snippet.lang];
    if (Array.isArray(rule)) {
      const [extension, wrap, project] = rule;
      const file = `${prefix}-line-${snippet.line}.${extension}`;
      writeFileSync(join(work, file), `// ${at}\n${wrap(snippet)}`);
      typed[project].push(file);
    } else if (typeof rule === "function") {
      rule(snippet, at);
    } else if (rule === undefined) {
      failures.push(`${at}: a \`${snippet.lang || "plain"}\` snippet, which this check cannot test`);
    }
  }
}

for (const [project, files] of Object.entries(typed)) {
  if (!files.length) continue;
  const config = `tsconfig.${project}.json`;
  writeFileSync(
    join(work, config),
    JSON.stringify({
      compilerOptions: {
        strict: project === "strict",
        noEmit: true,
        allowJs: project === "script",
        checkJs: project === "script",
        target: "ES2022",
        module: "ESNext",
        moduleResolution: "Bundler",
        jsx: "react-jsx",
        lib: ["ES2022", "DOM", "DOM.Iterable"],
        types: [],
        // The declarations (the package's, React's, the DOM's) are checked once, in "strict".
        skipLibCheck: project === "script",
      },
      files,
    }),
  );
  try {
    execFileSync(join(root, "tools/node_modules/.bin/tsc"), ["-p", join(work, config)], { stdio: "pipe" });
  } catch (error) {
    // tsc names target/npm/readme-check/<readme>-line-<N>.*: N is the snippet's first line there.
    failures.push(`tsc (${project}; <readme>-line-N: the snippet starting at that README's line N, +1 line for the header):\n${error.stdout}`);
  }
}

if (failures.length) {
  for (const failure of failures) console.error(`[readme] ${failure}`);
  process.exit(1);
}
const count = typed.strict.length + typed.script.length;
console.log(`[readme] ok: ${count} snippets of ${Object.keys(readmes).join(" and ")} type-check against ${tarballName}`);
