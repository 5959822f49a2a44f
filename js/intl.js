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

// "CODE\tName" lines for each two-letter code in `packed`, sorted by name for `locale`.
export function regionList(locale, packed) {
  let names;
  try {
    names = new Intl.DisplayNames([locale], { type: "region" });
  } catch (_) {
    names = null;
  }
  const rows = [];
  for (let i = 0; i + 1 < packed.length; i += 2) {
    const code = packed.slice(i, i + 2);
    let name = code;
    try {
      name = (names && names.of(code)) || code;
    } catch (_) {}
    rows.push([code, name]);
  }
  rows.sort((a, b) => a[1].localeCompare(b[1], locale));
  return rows.map((row) => row[0] + "\t" + row[1]).join("\n");
}

// The CLDR plural category ("one", "few", ...) of a whole `count` in `locale`.
export function pluralCategory(locale, count) {
  try {
    return new Intl.PluralRules(locale).select(count);
  } catch (_) {
    return "other";
  }
}
