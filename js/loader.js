// checkout.js: the loader a shop's page includes from checkout-server
//   <script src="https://pay.example.com/checkout.js"></script>
// It defines <card-checkout> and CardCheckout.mount(element, options), and puts the card form
// in an <iframe> on checkout-server's origin. The card number and CVC exist only inside that
// frame: no script on the shop's page can read them. The session's client secret and the
// customer token go to the frame in the body of a POST (never in a URL); the frame talks back
// with postMessage, which this file accepts only from the frame's own window and origin.
//
// Attributes / options: session (session), client-secret (clientSecret), locale, mode,
// customer-token (customerToken), server (default: the origin this script came from).
// Events (bubbling, composed CustomEvents on the element): ready, change, submit, success,
// error, and the cancelable redirect (3-D Secure: cancel it to navigate yourself).
// Methods: setLocale(tag), unmount(). The theme is read from the element's --cc-* custom
// properties and its CSS color-scheme (`dark`; `light dark` follows the shopper's setting)
// when the form is rendered.
//
// The same file is the npm package's classic script (`card-checkout/checkout.js`) and, imported
// as a module, the side effect of its ES entry (js/package/index.mjs): there is no script
// address to default to, so CardCheckout.configure({ server }) sets the checkout-server that
// elements without a `server` attribute use.
(function () {
  "use strict";
  if (window.CardCheckout) return;

  var script = document.currentScript;
  var defaultServer = script && script.src ? new URL(script.src).origin : null;
  var ATTRIBUTES = ["session", "client-secret", "locale", "mode", "customer-token", "server"];
  var EVENTS = ["ready", "change", "submit", "success", "error"];
  var THEME = ["font", "font-size", "text", "muted", "background", "surface", "border", "accent",
    "accent-text", "error", "success", "radius", "spacing", "focus"];
  // How long the frame may take to say it is there before the element reports an error.
  var LOAD_LIMIT_MS = 20000;
  var frames = 0;

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

  function emit(host, name, detail, cancelable) {
    return host.dispatchEvent(new CustomEvent(name, {
      detail: detail, bubbles: true, composed: true, cancelable: !!cancelable,
    }));
  }

  // One rendered frame inside `host`'s shadow root.
  function Frame(host, root, options) {
    var self = this;
    this.host = host;
    this.origin = originOf(options.server);
    this.loaded = false;
    this.pendingLocale = null;
    if (!this.origin) {
      this.fail("invalid_options", options.server || defaultServer ?
        "card-checkout: option `server` is not a URL" :
        "card-checkout: option `server` is missing (or call CardCheckout.configure({ server }))");
      return;
    }
    var name = "card-checkout-" + (++frames) + "-" + Date.now();
    var frame = document.createElement("iframe");
    frame.name = name;
    // English until the frame sends its title in the shopper's language.
    frame.title = options.mode === "subscriptions" ? "Your subscriptions" : "Card payment";
    frame.setAttribute("scrolling", "no");
    frame.style.cssText = "display:block;width:100%;height:320px;border:0;overflow:hidden;" +
      "background:transparent;color-scheme:normal";
    this.frame = frame;
    this.listener = function (event) { self.receive(event); };
    window.addEventListener("message", this.listener);
    root.append(frame);

    var form = document.createElement("form");
    form.method = "post";
    form.action = this.origin + "/frame/";
    form.target = name;
    form.hidden = true;
    var fields = {
      origin: location.origin,
      session: options.session || "",
      client_secret: options.clientSecret || "",
      customer_token: options.customerToken || "",
      mode: options.mode || "",
      locale: options.locale || "",
      theme: JSON.stringify(themeOf(host)),
    };
    Object.keys(fields).forEach(function (key) {
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = key;
      input.value = fields[key];
      form.append(input);
    });
    root.append(form);
    form.submit();
    form.remove();
    this.timer = setTimeout(function () {
      if (!self.loaded) {
        self.fail("frame_unavailable", "card-checkout: the payment form did not load from " +
          self.origin + " (is " + location.origin + " in its ALLOWED_ORIGINS?)");
      }
    }, LOAD_LIMIT_MS);
  }

  Frame.prototype.fail = function (code, message) {
    console.error(message);
    emit(this.host, "error", { code: code, message: message });
  };

  Frame.prototype.receive = function (event) {
    if (!this.frame || event.source !== this.frame.contentWindow) return;
    if (event.origin !== this.origin) return;
    var data = event.data;
    if (!data || data.cc !== "card-checkout") return;
    if (data.type === "loaded") {
      this.loaded = true;
      if (typeof data.title === "string" && data.title) this.frame.title = data.title;
      clearTimeout(this.timer);
      if (this.pendingLocale !== null) this.setLocale(this.pendingLocale);
    } else if (data.type === "resize" && typeof data.height === "number" && data.height > 0) {
      this.frame.style.height = Math.ceil(data.height) + "px";
    } else if (data.type === "event" && EVENTS.indexOf(data.name) >= 0) {
      emit(this.host, data.name, data.detail);
    } else if (data.type === "redirect" && typeof data.url === "string" && isWebUrl(data.url)) {
      if (emit(this.host, "redirect", { url: data.url }, true)) window.location.assign(data.url);
    }
  };

  Frame.prototype.setLocale = function (tag) {
    if (!this.frame) return;
    if (!this.loaded) {
      this.pendingLocale = tag;
      return;
    }
    this.pendingLocale = null;
    this.frame.contentWindow.postMessage({ cc: "card-checkout", type: "locale", locale: tag },
      this.origin);
  };

  Frame.prototype.remove = function () {
    clearTimeout(this.timer);
    window.removeEventListener("message", this.listener);
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

      // Renders once per batch of attribute changes: a shop may set session and client-secret
      // one after the other.
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
    // The checkout-server of every element without a `server` attribute; warms up the
    // connection to it, which the form's frame will need.
    configure: function (settings) {
      var server = settings && settings.server;
      if (!server || !isWebUrl(String(server))) {
        throw new TypeError("CardCheckout.configure: `server` must be an http(s) URL");
      }
      defaultServer = String(server);
      var hint = document.createElement("link");
      hint.rel = "preconnect";
      hint.href = new URL(defaultServer).origin;
      document.head.append(hint);
    },
  };
})();
