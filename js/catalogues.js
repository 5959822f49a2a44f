// Loads a message catalogue of the checkout component (js/i18n/<tag>.js) the first time its
// language is shown, so a page in English downloads none of them (src/i18n/catalogues.rs).
// This file is a wasm-bindgen snippet, served from <root>/snippets/<crate>/js/; trunk copies
// the catalogues to <root>/js/i18n/ (www/index.html), three directories up. A dynamic import,
// not fetch: it resolves against this module's URL, so it also works when the component is
// loaded from the checkout server into another origin's page.
export function loadCatalogue(tag) {
  const url = new URL("../../../js/i18n/" + tag + ".js", import.meta.url);
  return import(url.href).then((module) => module.default);
}
