// What the wasm asks of the browser's own APIs, smaller than doing it in Rust: locale-aware
// formatting through Intl (amounts arrive as exact decimal strings, "12.34", never as
// floating-point numbers), and the proof of work through WebCrypto (solveProof, at the end).

export function formatMoney(locale, currency, digits, amount) {
  try {
    return new Intl.NumberFormat(locale, {
      style: "currency",
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(amount);
  } catch (_) {
    return amount + " " + currency;
  }
}

export function formatDate(locale, iso) {
  const date = new Date(iso);
  if (isNaN(date.getTime())) return iso;
  return date.toLocaleDateString(locale, { year: "numeric", month: "long", day: "numeric" });
}

export function timeZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (_) {
    return "";
  }
}

// Fills the country `select` (src/ui/countries.rs): at once its one option `chosen` (a code, or
// none), then in the next task, once the form is on screen, an option for each two-letter code
// in `packed`, named by the browser for `locale` and sorted as `locale` sorts, with what is
// chosen by then kept. The select's first option ("choose a country") stays.
export function fillCountries(select, locale, packed, chosen) {
  let names = null;
  try {
    names = new Intl.DisplayNames([locale], { type: "region" });
  } catch (_) {}
  const name = (code) => {
    try {
      return (names && names.of(code)) || code;
    } catch (_) {
      return code;
    }
  };
  const option = (code, text, selected) => {
    const element = new Option(text, code, selected, selected);
    select.append(element);
  };
  if (chosen) option(chosen, name(chosen), true);
  setTimeout(() => {
    const value = select.value;
    while (select.options.length > 1) select.options[select.options.length - 1].remove();
    const rows = [];
    for (let i = 0; i + 1 < packed.length; i += 2) {
      const code = packed.slice(i, i + 2);
      rows.push([code, name(code)]);
    }
    let compare;
    try {
      compare = new Intl.Collator(locale).compare;
    } catch (_) {
      compare = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
    }
    rows.sort((a, b) => compare(a[1], b[1]));
    for (const [code, text] of rows) option(code, text, code === value);
  }, 0);
}

// The CLDR plural category ("one", "few", ...) of a whole `count` in `locale`.
export function pluralCategory(locale, count) {
  try {
    return new Intl.PluralRules(locale).select(count);
  } catch (_) {
    return "other";
  }
}

// The proof of work checkout-server asks of a pay call while a card-testing alert is open
// (src/contract/proof.rs): the number, 0 to max, whose SHA-256 of salt followed by the number's
// digits is challenge (hex). Hashed a batch at a time; -1 when no number answers (or WebCrypto
// is missing).
export async function solveProof(salt, challenge, max) {
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (!subtle || challenge.length !== 64) return -1;
  const wanted = new Uint8Array(32);
  for (let i = 0; i < 32; i++) wanted[i] = parseInt(challenge.slice(2 * i, 2 * i + 2), 16);
  const encoder = new TextEncoder();
  for (let start = 0; start <= max; start += 256) {
    const tries = [];
    for (let n = start; n <= Math.min(start + 255, max); n++) {
      tries.push(subtle.digest("SHA-256", encoder.encode(salt + n)));
    }
    const hashes = await Promise.all(tries);
    for (let i = 0; i < hashes.length; i++) {
      const hash = new Uint8Array(hashes[i]);
      if (hash.every((byte, j) => byte === wanted[j])) return start + i;
    }
  }
  return -1;
}
