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

export function regionName(locale, code) {
  try {
    return new Intl.DisplayNames([locale], { type: "region" }).of(code) || code;
  } catch (_) {
    return code;
  }
}

export function timeZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (_) {
    return "";
  }
}
