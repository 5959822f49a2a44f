// <card-checkout>: the custom element around the wasm component. It renders into its own open
// shadow root, so it works inside another page's shadow DOM and keeps the shop's CSS out;
// theming goes through CSS custom properties, which cross the shadow boundary.
//
// Attributes: session, client-secret, server, locale, mode, customer-token, and stylesheet
// (URL of the component CSS, or `#id` of a <style> in the page to copy into the shadow root;
// default: the href of a <link data-card-checkout> in the page).
// Events (bubbling, composed CustomEvents): ready, change, submit, processing, success, error,
// redirect.

const ATTRIBUTES = ["session", "client-secret", "server", "locale", "mode", "customer-token"];

function optionName(attribute) {
  return attribute.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
}

export function defineCardCheckout(mount) {
  if (customElements.get("card-checkout")) return;
  customElements.define(
    "card-checkout",
    class extends HTMLElement {
      static get observedAttributes() {
        return ATTRIBUTES.concat("stylesheet");
      }

      connectedCallback() {
        this.render();
      }

      disconnectedCallback() {
        this.scheduled = false;
        this.release();
      }

      attributeChangedCallback(name, before, after) {
        if (!this.isConnected || before === after) return;
        if (name === "locale" && this.checkout) this.checkout.setLocale(after || "");
        else this.schedule();
      }

      // Re-renders once per batch of attribute changes, after them. An element upgraded with
      // its attributes already set gets one attributeChangedCallback per attribute before
      // connectedCallback, and a shop may set session and client-secret one after the other:
      // rendering on each would mount a component with half the options (an error event) and
      // unmount it at once.
      schedule() {
        if (this.scheduled) return;
        this.scheduled = true;
        queueMicrotask(() => {
          if (this.scheduled && this.isConnected) this.render();
        });
      }

      render() {
        this.scheduled = false;
        this.release();
        const root = this.shadowRoot || this.attachShadow({ mode: "open" });
        root.replaceChildren();
        const marked = document.querySelector("link[data-card-checkout]");
        const css = this.getAttribute("stylesheet") || (marked && marked.href);
        const inline = css && css.startsWith("#") ? document.querySelector(css) : null;
        if (inline) {
          root.append(inline.cloneNode(true));
        } else if (css) {
          const link = document.createElement("link");
          link.rel = "stylesheet";
          link.href = css;
          root.append(link);
        }
        const container = document.createElement("div");
        container.setAttribute("part", "container");
        root.append(container);
        const options = {};
        for (const attribute of ATTRIBUTES) {
          if (this.hasAttribute(attribute)) options[optionName(attribute)] = this.getAttribute(attribute);
        }
        this.checkout = mount(container, options, this);
      }

      release() {
        if (this.checkout) this.checkout.unmount();
        this.checkout = null;
      }
    },
  );
}
