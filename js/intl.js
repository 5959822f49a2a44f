// Locale-aware formatting through the browser's Intl: smaller than doing it in Rust.
// Amounts arrive as exact decimal strings ("12.34"), never as floating-point numbers.

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
