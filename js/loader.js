// checkout.js: the loader of checkout-server's card form, in a script element whose src is
// https://pay.example.com/checkout.js or pasted whole into an inline one with data-server
// naming checkout-server (safe: it never holds a closing script tag or a comment opener;
// server/src/api/frame/loader.rs checks). It defines <card-checkout> and
// CardCheckout.mount(element, options), and puts the card form in an <iframe> on
// checkout-server's origin: no script on the shop's page can read the card. The frame's
// address (GET /frame/shell: origin, mode, locale, theme, build) holds nothing secret, so
// browsers keep it; session, client secret and customer token follow in a message to the
// frame's origin when it asks (`hello`). Messages back are taken only from the frame's own
// window and origin.
//
// Attributes / options: session, client-secret (clientSecret), locale, mode, customer-token
// (customerToken), server (default: this script's origin), three-d-secure (threeDSecure:
// `dialog`, the default, or `redirect`). Events (bubbling, composed CustomEvents): ready,
// change, submit, processing, success, error, and the cancelable redirect (3-D Secure in the whole window:
// cancel it to navigate yourself).
// 3-D Secure in a dialog: the card frame sends the bank's address (`challenge`); a <dialog>
// here frames checkout-server's host page (/frame/challenge, the bank's address in its
// fragment), which frames the bank's page: the shop's CSP allows frames from checkout-server
// alone. The dialog shows only once the host says a bank page loaded (`bank_loaded`) and no
// return followed (a frictionless card shows nothing). The return page says
// `three_ds_returned` through the host; the card frame is then told the dialog ended
// (`challenge_done`, or `challenge_closed` for Escape or the close button) and asks
// checkout-server how the payment went: no message carries an outcome.
// A frame that loads without saying it runs (origin refused) is `frame_unavailable` at once:
// the shopper reads a plain sentence, the developer why (detail.developerMessage, console).
// Methods: setLocale(tag), unmount(). The theme is the element's --cc-* custom properties and
// CSS color-scheme (`dark`; `light dark` follows the shopper's setting) at render.
//
// The npm package's classic script and ES entry (js/package/) are this file: there
// CardCheckout.configure({ server }) names the checkout-server of elements without `server`.
(function () {
  "use strict";
  if (window.CardCheckout) return;

  var script = document.currentScript;
  var defaultServer = script && script.src ? new URL(script.src).origin :
    script && script.dataset.server || null;
  var ATTRIBUTES = ["session", "client-secret", "locale", "mode", "customer-token", "server",
    "three-d-secure"];
  var EVENTS = ["ready", "change", "submit", "processing", "success", "error"];
  var THEME = ["font", "font-size", "text", "muted", "background", "surface", "border", "accent",
    "accent-text", "error", "success", "radius", "spacing", "focus"];
  // How long the frame may take to say `loaded` (posted before its load event).
  var LOAD_LIMIT_MS = 20000;
  var LOADED_GRACE_MS = 500;
  // The dialog shows once a bank page stayed this long without the return's word, or after
  // the limit whatever it shows.
  var REVEAL_GRACE_MS = 400;
  var REVEAL_LIMIT_MS = 8000;
  // EMV 3-D Secure challenge windows (`05`: the whole viewport).
  var WINDOWS = { "01": [250, 400], "02": [390, 400], "03": [500, 600], "04": [600, 400] };
  var DIALOG_CSS = ".cc-3ds{padding:0;border:0;border-radius:var(--cc-radius,8px);" +
    "background:var(--cc-surface,Canvas);color:var(--cc-text,CanvasText);font:inherit;" +
    "font-family:var(--cc-font,inherit);max-width:100vw;max-height:100vh;overflow:auto;" +
    "box-shadow:0 8px 32px rgba(0,0,0,.4)}" +
    ".cc-3ds[open]{display:flex;flex-direction:column}" +
    ".cc-3ds::backdrop{background:rgba(0,0,0,.55)}" +
    ".cc-3ds-full{width:100vw;height:100vh;border-radius:0}" +
    ".cc-3ds-bar{display:flex;align-items:center;gap:.5em;padding:.25em .25em .25em 1em}" +
    ".cc-3ds h2{flex:1;margin:0;font-size:1em;font-weight:600}" +
    ".cc-3ds button{font:inherit;font-size:1.5em;line-height:1;min-width:44px;min-height:44px;" +
    "border:0;border-radius:4px;background:transparent;color:inherit;cursor:pointer}" +
    ".cc-3ds :focus-visible{outline:3px solid var(--cc-focus,Highlight);outline-offset:2px}" +
    ".cc-3ds iframe{display:block;border:0;background:#fff;max-width:100%}" +
    ".cc-3ds-full iframe{flex:1;width:100%}" +
    ".cc-3ds p{margin:0;padding:.5em 1em .75em;font-size:.9em}" +
    ".cc-3ds a{color:inherit}";
  // By language, picked as the component does: the `locale` option, the browser's, English.
  var UNAVAILABLE = {
    en: "Payment is not available here.",
    de: "Die Zahlung ist hier nicht verf\u00fcgbar.",
    fr: "Le paiement n\u2019est pas disponible ici.",
    es: "El pago no est\u00e1 disponible aqu\u00ed.",
    it: "Il pagamento non \u00e8 disponibile qui.",
    nl: "Betalen is hier niet mogelijk.",
    pt: "O pagamento n\u00e3o est\u00e1 dispon\u00edvel aqui.",
    pl: "P\u0142atno\u015b\u0107 nie jest tutaj dost\u0119pna.",
    sv: "Betalning \u00e4r inte tillg\u00e4nglig h\u00e4r.",
    ja: "\u3053\u3053\u3067\u306f\u304a\u652f\u6255\u3044\u3067\u304d\u307e\u305b\u3093\u3002",
    zh: "\u6b64\u5904\u65e0\u6cd5\u4ed8\u6b3e\u3002",
    ar: "\u0627\u0644\u062f\u0641\u0639 \u063a\u064a\u0631 \u0645\u062a\u0627\u062d \u0647\u0646\u0627.",
    he: "\u05d4\u05ea\u05e9\u05dc\u05d5\u05dd \u05d0\u05d9\u05e0\u05d5 \u05d6\u05de\u05d9\u05df \u05db\u05d0\u05df.",
  };
  // The form's build: written in by GET /checkout.js; a pasted or npm copy goes by what the
  // frame last reported (remembered; read as the loader starts: a first read is slow).
  var BUILD = "";
  var frames = 0;
  var REMEMBERED = "card-checkout:build ";

  function optionName(attribute) {
    return attribute.replace(/-([a-z])/g, function (_, c) { return c.toUpperCase(); });
  }

  function originOf(server) {
    server = server || defaultServer;
    if (!server) return null;
    try {
      return new URL(server, location.href).origin;
    } catch (_) {
      return null;
    }
  }

  function isWebUrl(url) {
    return /^https?:\/\//i.test(url);
  }

  // The element's --cc-* custom properties that are set, and its color-scheme (dark, or
  // `light dark` to follow the shopper's setting) when not the default, as {name: value}.
  function themeOf(element) {
    var style = getComputedStyle(element);
    var theme = {};
    THEME.forEach(function (name) {
      var value = style.getPropertyValue("--cc-" + name).trim();
      if (value) theme["--cc-" + name] = value;
    });
    var scheme = style.getPropertyValue("color-scheme").trim();
    if (scheme && scheme !== "normal") theme["color-scheme"] = scheme;
    return theme;
  }

  var remembered = {};
  function rememberedBuild(origin) {
    if (!(origin in remembered)) {
      remembered[origin] = "";
      try {
        remembered[origin] = localStorage.getItem(REMEMBERED + origin) || "";
      } catch (_) {
        // Storage off.
      }
    }
    return remembered[origin];
  }

  function remember(origin, build) {
    remembered[origin] = build;
    try {
      localStorage.setItem(REMEMBERED + origin, build);
    } catch (_) {
      // Storage off: the next visit revalidates the shell.
    }
  }

  // The shell's address: the same for every session, so browsers keep it.
  function shellUrl(origin, options, theme) {
    var query = new URLSearchParams({
      v: (script && script.src ? BUILD : rememberedBuild(origin)) || BUILD,
      origin: location.origin,
      mode: options.mode || "",
      locale: options.locale || "",
    });
    if (Object.keys(theme).length) query.set("theme", JSON.stringify(theme));
    return origin + "/frame/shell?" + query;
  }

  function language(tag) {
    var primary = String(tag || "").split(/[-_]/)[0].toLowerCase();
    primary = primary === "iw" ? "he" : primary;
    return UNAVAILABLE.hasOwnProperty(primary) ? primary : undefined;
  }

  function emit(host, name, detail, cancelable) {
    return host.dispatchEvent(new CustomEvent(name, {
      detail: detail, bubbles: true, composed: true, cancelable: !!cancelable,
    }));
  }

  // One rendered frame inside `host`'s shadow root.
  function Frame(host, root, options) {
    var self = this;
    this.host = host;
    this.root = root;
    this.threeDSecure = options.threeDSecure === "redirect" ? "redirect" : "dialog";
    if (options.threeDSecure && options.threeDSecure !== this.threeDSecure) {
      console.error("card-checkout: option `three-d-secure` must be `dialog` or `redirect`; " +
        "using `dialog`");
    }
    this.origin = originOf(options.server);
    this.loaded = false;
    this.pendingLocale = null;
    this.locale = options.locale;
    if (!this.origin) {
      this.fail("invalid_options", options.server || defaultServer ?
        "card-checkout: option `server` is not a URL" :
        "card-checkout: option `server` is missing (or call CardCheckout.configure({ server }))");
      return;
    }
    var frame = document.createElement("iframe");
    frame.name = "card-checkout-" + (++frames) + "-" + Date.now();
    // English until the frame sends its title in the shopper's.
    frame.title = options.mode === "subscriptions" ? "Your subscriptions" : "Card payment";
    frame.setAttribute("scrolling", "no");
    frame.style.cssText = "display:block;width:100%;height:320px;border:0;overflow:hidden;" +
      "background:transparent;color-scheme:normal";
    // Set before insertion: the request leaves at once; the rest comes after.
    frame.src = shellUrl(this.origin, options, themeOf(host));
    this.frame = frame;
    root.append(frame);
    // Sent when the frame asks (`hello`), to its window on its origin only.
    this.secrets = {
      session: options.session || "",
      client_secret: options.clientSecret || "",
      customer_token: options.customerToken || "",
    };
    this.listener = function (event) { self.receive(event); };
    window.addEventListener("message", this.listener);
    // The card frame picks the challenge window from this page's viewport.
    this.resized = function () {
      if (self.loaded) self.post({ type: "viewport", width: innerWidth, height: innerHeight });
    };
    window.addEventListener("resize", this.resized);
    var unavailable = function () {
      if (!self.loaded) self.unavailable();
    };
    // After about:blank: the card form, a refusal or the browser's error page.
    frame.addEventListener("load", function () {
      var own = frame.contentDocument;
      if (own && own.URL === "about:blank") return;
      clearTimeout(self.timer);
      self.timer = setTimeout(unavailable, LOADED_GRACE_MS);
    });
    this.timer = setTimeout(unavailable, LOAD_LIMIT_MS);
  }

  Frame.prototype.fail = function (code, message, detail) {
    console.error(message);
    emit(this.host, "error", detail || { code: code, message: message });
  };

  Frame.prototype.unavailable = function () {
    if (!this.frame || this.notice) return;
    var lang = language(this.locale) || language(navigator.language) || "en";
    var notice = document.createElement("p");
    notice.lang = lang;
    notice.dir = lang === "ar" || lang === "he" ? "rtl" : "ltr";
    notice.setAttribute("role", "alert");
    notice.textContent = UNAVAILABLE[lang];
    notice.style.cssText = "margin:0;padding:1em 0;font:inherit;color:inherit";
    this.frame.style.display = "none";
    this.frame.before(notice);
    this.notice = notice;
    var developer = "card-checkout: the payment form from " + this.origin + " did not start " +
      "in this page. Its ALLOWED_ORIGINS (read at start: restart it after a change) must name " +
      location.origin + " and the origin of any page framing this one.";
    this.fail("frame_unavailable", developer, {
      code: "frame_unavailable", message: notice.textContent, developerMessage: developer,
      origin: location.origin, server: this.origin,
    });
  };

  Frame.prototype.post = function (message) {
    message.cc = "card-checkout";
    this.frame.contentWindow.postMessage(message, this.origin);
  };

  Frame.prototype.receive = function (event) {
    if (this.bank && event.source === this.bank.contentWindow) {
      // The host page, on checkout-server's origin, in the dialog.
      var word = event.data;
      if (event.origin !== this.origin || !word || word.cc !== "card-checkout") return;
      if (word.type === "three_ds_returned") this.endChallenge("challenge_done");
      else if (word.type === "bank_loaded") {
        clearTimeout(this.revealTimer);
        this.revealTimer = setTimeout(this.reveal, REVEAL_GRACE_MS);
      }
      return;
    }
    if (!this.frame || event.source !== this.frame.contentWindow) return;
    if (event.origin !== this.origin) return;
    var data = event.data;
    if (!data || data.cc !== "card-checkout") return;
    if (data.type === "loaded") {
      this.loaded = true;
      // Later than the grace on a very busy machine: the form is there after all.
      if (this.notice) {
        this.notice.remove();
        this.notice = null;
        this.frame.style.display = "block";
      }
      if (typeof data.title === "string" && data.title) this.frame.title = data.title;
      clearTimeout(this.timer);
      if (this.pendingLocale !== null) this.setLocale(this.pendingLocale);
    } else if (data.type === "hello" && this.secrets) {
      // The shell asks as it starts (www/index.html).
      this.post({ type: "options", session: this.secrets.session,
        client_secret: this.secrets.client_secret, customer_token: this.secrets.customer_token,
        three_d_secure: this.threeDSecure,
        viewport: { width: innerWidth, height: innerHeight } });
      this.secrets = null;
    } else if (data.type === "build" && typeof data.build === "string") {
      remember(this.origin, data.build);
    } else if (data.type === "resize" && typeof data.height === "number" && data.height > 0) {
      this.frame.style.height = Math.ceil(data.height) + "px";
    } else if (data.type === "event" && EVENTS.indexOf(data.name) >= 0) {
      emit(this.host, data.name, data.detail);
    } else if (data.type === "redirect" && typeof data.url === "string" && isWebUrl(data.url)) {
      this.redirect(data.url);
    } else if (data.type === "challenge" && this.threeDSecure === "dialog" && !this.dialog &&
      typeof data.url === "string" && isWebUrl(data.url)) {
      this.challenge(data);
    }
  };

  Frame.prototype.redirect = function (url) {
    if (emit(this.host, "redirect", { url: url }, true)) window.location.assign(url);
  };

  // The bank's page in a dialog, hidden until the host says a bank page loaded and stayed.
  Frame.prototype.challenge = function (data) {
    var self = this;
    var said = function (value, english) {
      return typeof value === "string" && value ? value : english;
    };
    var make = function (tag, text) {
      var made = document.createElement(tag);
      if (text) made.textContent = text;
      return made;
    };
    var dialog = make("dialog");
    var size = WINDOWS[data.challenge_window];
    dialog.className = size ? "cc-3ds" : "cc-3ds cc-3ds-full";
    dialog.lang = said(data.lang, "en");
    dialog.dir = data.dir === "rtl" ? "rtl" : "ltr";
    var title = make("h2", said(data.title, "Confirm the payment with your bank"));
    title.id = this.frame.name + "-3ds";
    dialog.setAttribute("aria-labelledby", title.id);
    var close = make("button", "\u00d7");
    close.type = "button";
    close.setAttribute("aria-label", said(data.close, "Close"));
    var bar = make("div");
    bar.className = "cc-3ds-bar";
    bar.append(title, close);
    var bank = make("iframe");
    bank.title = said(data.frame_title, "Your bank's page");
    if (size) {
      bank.width = size[0];
      bank.height = size[1];
    }
    var instead = make("a", said(data.open_instead, "Open your bank's page instead"));
    instead.href = data.url;
    var line = make("p");
    line.append(instead);
    dialog.append(bar, bank, line);
    this.styleDialog();
    var end = function (event) {
      event.preventDefault();
      self.endChallenge("challenge_closed");
    };
    dialog.addEventListener("cancel", end);
    close.addEventListener("click", end);
    instead.addEventListener("click", function (event) {
      event.preventDefault();
      self.dropChallenge();
      self.redirect(data.url);
    });
    this.reveal = function () {
      if (self.dialog === dialog && !dialog.open) dialog.showModal();
    };
    this.revealTimer = setTimeout(this.reveal, REVEAL_LIMIT_MS);
    bank.src = this.origin + "/frame/challenge?" + new URLSearchParams({ origin: location.origin }) +
      "#" + new URLSearchParams({ url: data.url, title: bank.title });
    this.dialog = dialog;
    this.bank = bank;
    this.root.append(dialog);
  };

  // The dialog's styles, once per shadow root: a constructed stylesheet, which a shop's CSP
  // (`style-src` without 'unsafe-inline') does not block as it would a <style> element.
  Frame.prototype.styleDialog = function () {
    var root = this.root;
    if (root.ccDialogStyled) return;
    root.ccDialogStyled = true;
    try {
      var sheet = new CSSStyleSheet();
      sheet.replaceSync(DIALOG_CSS);
      root.adoptedStyleSheets = root.adoptedStyleSheets.concat(sheet);
    } catch (_) {
      var style = document.createElement("style");
      style.textContent = DIALOG_CSS;
      root.append(style);
    }
  };

  // Takes the dialog away; the card frame gets its focus back.
  Frame.prototype.dropChallenge = function () {
    clearTimeout(this.revealTimer);
    var dialog = this.dialog;
    this.dialog = null;
    this.bank = null;
    if (!dialog) return;
    if (dialog.open) dialog.close();
    dialog.remove();
    if (this.frame) this.frame.focus();
  };

  // The dialog ended (`challenge_done` or `challenge_closed`): the card frame asks the server.
  Frame.prototype.endChallenge = function (type) {
    if (!this.dialog) return;
    this.dropChallenge();
    if (this.frame) this.post({ type: type });
  };

  Frame.prototype.setLocale = function (tag) {
    if (!this.frame) return;
    if (!this.loaded) {
      this.pendingLocale = tag;
      return;
    }
    this.pendingLocale = null;
    this.post({ type: "locale", locale: tag });
  };

  Frame.prototype.remove = function () {
    clearTimeout(this.timer);
    this.dropChallenge();
    window.removeEventListener("message", this.listener);
    window.removeEventListener("resize", this.resized);
    if (this.frame) this.frame.remove();
    this.frame = null;
  };

  function readOptions(element) {
    var options = {};
    ATTRIBUTES.forEach(function (attribute) {
      if (element.hasAttribute(attribute)) options[optionName(attribute)] = element.getAttribute(attribute);
    });
    return options;
  }

  if (!(script && script.src) && defaultServer) rememberedBuild(originOf(null));

  if (!customElements.get("card-checkout")) {
    customElements.define("card-checkout", class extends HTMLElement {
      static get observedAttributes() {
        return ATTRIBUTES;
      }

      connectedCallback() {
        this.schedule();
      }

      disconnectedCallback() {
        this.scheduled = false;
        this.release();
      }

      attributeChangedCallback(name, before, after) {
        if (!this.isConnected || before === after) return;
        if (name === "locale" && this.current) this.current.setLocale(after || "");
        else this.schedule();
      }

      // One render per batch of attribute changes (session, then client-secret, ...).
      schedule() {
        if (this.scheduled) return;
        this.scheduled = true;
        var self = this;
        queueMicrotask(function () {
          if (self.scheduled && self.isConnected) self.render();
        });
      }

      render() {
        this.scheduled = false;
        this.release();
        var root = this.shadowRoot || this.attachShadow({ mode: "open" });
        root.replaceChildren();
        this.current = new Frame(this, root, readOptions(this));
      }

      release() {
        if (this.current) this.current.remove();
        this.current = null;
      }

      setLocale(tag) {
        this.setAttribute("locale", tag || "");
      }

      unmount() {
        this.remove();
      }
    });
  }

  // CardCheckout.mount(element, options): renders into `element` and returns the
  // <card-checkout> element it made ({setLocale(tag), unmount()}); events bubble to `element`.
  window.CardCheckout = {
    mount: function (element, options) {
      var checkout = document.createElement("card-checkout");
      options = options || {};
      ATTRIBUTES.forEach(function (attribute) {
        var value = options[optionName(attribute)];
        if (value) checkout.setAttribute(attribute, String(value));
      });
      element.append(checkout);
      return checkout;
    },
    unmount: function (checkout) {
      if (checkout) checkout.remove();
    },
    // The checkout-server of elements without `server`: its connection is warmed up and the
    // build its frame last reported read.
    configure: function (settings) {
      var server = settings && settings.server;
      if (!server || !isWebUrl(String(server))) {
        throw new TypeError("CardCheckout.configure: `server` must be an http(s) URL");
      }
      defaultServer = String(server);
      rememberedBuild(originOf(null));
      var hint = document.createElement("link");
      hint.rel = "preconnect";
      hint.href = new URL(defaultServer).origin;
      document.head.append(hint);
    },
  };
})();
