// Checks the code snippets of the npm package's README (js/package/README.md) against the
// package as packed (target/npm/card-checkout-<version>.tgz), so a snippet that drifts from
// the API fails the build (scripts/npm-package.sh runs it, in `make test`):
//   - ts, tsx: each is a module of its own, type-checked with tsc --noEmit (strict) against the
//     packed package and React's types (tools/node_modules), as a shop's TypeScript would;
//   - html: each is type-checked as JSX against the package's <card-checkout> typings
//     (card-checkout/react), which know its attributes;
//   - sh: an `npm install` of a tarball must name the file scripts/npm-package.sh writes;
//   - every snippet: a client secret (`cs_…`) given as the session id is refused.
// Any other fenced language fails: add a check for it here.
//
// Usage: node scripts/package-readme.mjs   (after the tarball is packed)
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const readmePath = join(root, "js/package/README.md");
const pkg = JSON.parse(readFileSync(join(root, "js/package/package.json"), "utf8"));
const tarballName = `${pkg.name}-${pkg.version}.tgz`;
const tarball = join(root, "target/npm", tarballName);
const work = join(root, "target/npm/readme-check");
const failures = [];

/** The README's fenced blocks: `{ lang, line, code }`, `line` the first code line (1-based). */
function snippets(text) {
  const found = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    if (end < 0) throw new Error(`README.md:${i + 1}: unclosed code fence`);
    found.push({ lang: open[1], line: i + 2, code: lines.slice(i + 1, end).join("\n") });
    i = end;
  }
  return found;
}

/** Where a README line is, for messages. */
const at = (snippet) => `js/package/README.md:${snippet.line}`;

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

const typed = [];
for (const snippet of snippets(readFileSync(readmePath, "utf8"))) {
  if (/session\s*[=:]\s*["']cs_/.test(snippet.code)) {
    failures.push(`${at(snippet)}: a client secret (cs_…) is given as the session id`);
  }
  const header = `// ${at(snippet)}\n`;
  if (snippet.lang === "ts" || snippet.lang === "tsx") {
    const file = `line-${snippet.line}.${snippet.lang}`;
    // `export {}` keeps a snippet without imports a module of its own.
    writeFileSync(join(work, file), `${header}${snippet.code}\nexport {};\n`);
    typed.push(file);
  } else if (snippet.lang === "html") {
    const file = `line-${snippet.line}-html.tsx`;
    const jsx = `import type {} from "card-checkout/react";\nexport const page = (\n<>\n${snippet.code}\n</>\n);\n`;
    writeFileSync(join(work, file), header + jsx);
    typed.push(file);
  } else if (snippet.lang === "sh") {
    for (const install of snippet.code.matchAll(/npm install (\S+\.tgz)/g)) {
      if (!install[1].endsWith(`target/npm/${tarballName}`)) {
        failures.push(`${at(snippet)}: installs ${install[1]}, but the package is packed as target/npm/${tarballName}`);
      }
    }
  } else {
    failures.push(`${at(snippet)}: a \`${snippet.lang || "plain"}\` snippet, which this check cannot test`);
  }
}

writeFileSync(
  join(work, "tsconfig.json"),
  JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: "ES2022",
      module: "ESNext",
      moduleResolution: "Bundler",
      jsx: "react-jsx",
      lib: ["ES2022", "DOM", "DOM.Iterable"],
      types: [],
      skipLibCheck: false,
    },
    files: typed,
  }),
);
try {
  execFileSync(join(root, "tools/node_modules/.bin/tsc"), ["-p", work], { stdio: "pipe" });
} catch (error) {
  // tsc names target/npm/readme-check/line-<N>.*: N is the snippet's first line in README.md.
  failures.push(`tsc (line-N: the snippet starting at README.md line N; +1 line for the header):\n${error.stdout}`);
}

if (failures.length) {
  for (const failure of failures) console.error(`[readme] ${failure}`);
  process.exit(1);
}
console.log(`[readme] ok: ${typed.length} snippets of js/package/README.md type-check against ${tarballName}`);
