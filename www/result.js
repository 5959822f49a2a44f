// The result page's script (mode `result`, the page 3-D Secure returns to), inline in the
// document checkout-server writes (server/src/api/frame/result_page.rs): no wasm. It takes the
// session from the page (a shell's `hello`; an earlier loader's POST /frame/ wrote it in),
// asks POST /frame/result where the payment stands (after 0.5 s, doubling to 10 s, 12 times:
// the component's back-off), shows the panel the server drew and tells the page what the
// component would: `ready`, then `success` or `error` once the payment settles. Messages go
// to the page's origin only, and are taken only from the parent window at that origin.
(function () {
  "use strict";
  if (window.parent === window) return;
  var config = JSON.parse(document.getElementById("checkout-config").textContent);
  var root = document.querySelector(".cc-root");
  var region = document.getElementById("cc-result");
  var locale = config.locale || "";
  var session = null;
  var asking = false;
  var told = false;
  // The panels while asking and once stopped: of the last answer with a result, else of the
  // last refusal, else the document's own (pending, unknown).
  var known = null;
  var blank = { outcome: region.innerHTML,
    stopped: document.getElementById("cc-result-unknown").innerHTML };

  function tell(message) {
    message.cc = "card-checkout";
    window.parent.postMessage(message, config.origin);
  }

  // The panel, its amount formatted by the browser's Intl as the component formats it.
  function show(stopped) {
    var panels = known || blank;
    region.innerHTML = stopped ? panels.stopped : panels.outcome;
    region.querySelectorAll(".cc-money").forEach(function (money) {
      var digits = Number(money.dataset.exponent);
      try {
        money.textContent = new Intl.NumberFormat(root.lang, {
          style: "currency", currency: money.dataset.currency,
          minimumFractionDigits: digits, maximumFractionDigits: digits,
        }).format(money.dataset.value);
      } catch (_) {
        // An unknown currency: the server's "25.00 EUR" stays.
      }
    });
    var again = document.getElementById("cc-check-again");
    if (again) again.addEventListener("click", round);
  }

  // One answer, or null (network, server error, rate limit: asked again later). A settled
  // payment is told to the page once.
  function ask() {
    return fetch(new URL("result", location.href), {
      method: "POST", credentials: "same-origin", cache: "no-store",
      body: new URLSearchParams({ session: session.session,
        client_secret: session.client_secret, locale: locale }),
    }).then(function (response) {
      return response.ok ? response.json() : null;
    }).catch(function () {
      return null;
    }).then(function (answer) {
      if (!answer) return null;
      root.lang = answer.lang;
      root.dir = answer.dir;
      if (answer.refused) blank = answer;
      else known = answer;
      if (answer.event && !told) {
        told = true;
        tell({ type: "event", name: answer.event.name, detail: answer.event.detail });
      }
      return answer;
    });
  }

  // Asks until the payment settles, the server refuses, or the round ends.
  function round() {
    if (asking) return;
    asking = true;
    var delay = 500;
    var polls = 0;
    show(false);
    (function next() {
      ask().then(function (answer) {
        polls += 1;
        if ((answer && (answer.settled || answer.refused)) || polls >= 12) {
          asking = false;
          show(true);
          return;
        }
        show(false);
        setTimeout(next, delay);
        delay = Math.min(delay * 2, 10000);
      });
    })();
  }

  function start(given) {
    session = given;
    tell({ type: "event", name: "ready", detail: { mode: "result" } });
    round();
  }

  window.addEventListener("message", function (event) {
    if (event.source !== window.parent || event.origin !== config.origin) return;
    var data = event.data;
    if (!data || data.cc !== "card-checkout") return;
    if (data.type === "options" && !session) {
      var text = function (value) { return typeof value === "string" ? value : ""; };
      start({ session: text(data.session), client_secret: text(data.client_secret) });
    } else if (data.type === "locale") {
      // The same panel in the new language; a round under way takes it from its next answer.
      locale = typeof data.locale === "string" ? data.locale : "";
      if (session && !asking) {
        ask().then(function (answer) {
          if (answer && !asking) show(true);
        });
      }
    }
  });

  // The page sizes the frame to its content.
  var height = 0;
  new ResizeObserver(function () {
    var now = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (now !== height) {
      height = now;
      tell({ type: "resize", height: now });
    }
  }).observe(document.documentElement);

  // A shell's session comes from the page; an earlier loader's POST wrote it in.
  if (typeof config.build === "string") {
    window.parent.postMessage({ cc: "card-checkout", type: "hello" }, "*");
  } else {
    start(config);
  }
  tell({ type: "loaded", title: config.title });
})();
