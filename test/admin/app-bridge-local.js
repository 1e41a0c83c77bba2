/*
 * LOCAL TEST DOUBLE of App Bridge. This is NOT Shopify's code and NOT Shopify's CDN script.
 *
 * The embedded admin loads https://cdn.shopify.com/shopifycloud/app-bridge.js (injected by
 * AppProvider from @shopify/shopify-app-remix/react). The test machine has no internet, so the
 * admin browser tests (test/admin/) answer that URL with this file through Playwright's
 * page.route. It stands in for what the app uses of App Bridge, and no more:
 *
 * - the `shopify` global: config, idToken(), toast, loading, resourcePicker, modal, saveBar,
 *   environment; every call is recorded in window.__svcAppBridgeCalls for the tests;
 * - same-origin fetch carries `Authorization: Bearer <session token>`, as App Bridge's fetch
 *   interception does in production (Remix data requests and form submissions);
 * - the web components the app renders (ui-nav-menu, ui-title-bar, ui-modal, ui-save-bar) as
 *   custom elements. The admin draws the navigation and the title bar outside the app's iframe,
 *   so they stay hidden here; a modal or save bar that is shown is drawn plainly in the page,
 *   with its title-bar buttons forwarding clicks to the app's own buttons, as App Bridge does.
 *
 * Session tokens are signed by the test harness (Node, with the test API secret) and reach this
 * script through window.__svcAdminTest (set by an init script) and the exposed function
 * window.__svcFreshIdToken. Nothing here knows the secret.
 */
(() => {
  "use strict";

  const harness = window.__svcAdminTest || {};
  const script = document.currentScript;
  const query = new URLSearchParams(window.location.search);
  /** Every call the app made to the `shopify` global, in order: { api, args }. */
  const calls = (window.__svcAppBridgeCalls = []);
  const record = (api, args) => calls.push({ api, args: JSON.parse(JSON.stringify(args ?? [])) });

  async function idToken() {
    record("idToken", []);
    if (typeof window.__svcFreshIdToken === "function") return window.__svcFreshIdToken();
    if (harness.idToken) return harness.idToken;
    throw new Error("App Bridge test double: the harness gave no session token");
  }

  // ---- fetch: same-origin requests carry the session token --------------------------------
  const originalFetch = window.fetch.bind(window);
  window.fetch = async function fetchWithSessionToken(input, init) {
    const request = new Request(input, init);
    const url = new URL(request.url, window.location.href);
    if (url.origin !== window.location.origin || request.headers.has("Authorization")) {
      return originalFetch(request);
    }
    const retry = request.clone();
    request.headers.set("Authorization", `Bearer ${await idToken()}`);
    const response = await originalFetch(request);
    // As App Bridge does: a token the server found invalid is replaced once, then retried.
    if (response.headers.get("X-Shopify-Retry-Invalid-Session-Request") === "1") {
      retry.headers.set("Authorization", `Bearer ${await idToken()}`);
      return originalFetch(retry);
    }
    return response;
  };

  // ---- plain overlays for what the admin draws around the iframe --------------------------
  const STYLE = `
    ui-nav-menu, ui-title-bar { display: none !important; }
    ui-modal, ui-save-bar { display: none !important; }
    .svc-ab-overlay { position: fixed; inset: 0; z-index: 2147483000; display: flex;
      align-items: center; justify-content: center; background: rgba(0, 0, 0, 0.45);
      font: 14px/1.4 -apple-system, "Segoe UI", Roboto, sans-serif; }
    .svc-ab-dialog { background: #fff; border-radius: 12px; width: min(620px, 92vw);
      max-height: 86vh; display: flex; flex-direction: column; overflow: hidden;
      box-shadow: 0 20px 40px rgba(0, 0, 0, 0.25); }
    .svc-ab-dialog[data-variant="large"] { width: min(980px, 94vw); }
    .svc-ab-dialog[data-variant="max"] { width: 96vw; height: 92vh; }
    .svc-ab-dialog[data-variant="small"] { width: min(380px, 92vw); }
    .svc-ab-header { display: flex; justify-content: space-between; align-items: center;
      padding: 12px 16px; background: #f3f3f3; border-bottom: 1px solid #e3e3e3;
      font-weight: 650; }
    .svc-ab-close { border: 0; background: none; font-size: 18px; cursor: pointer; }
    .svc-ab-body { overflow: auto; flex: 1; }
    .svc-ab-footer { display: flex; justify-content: flex-end; gap: 8px; padding: 12px 16px;
      border-top: 1px solid #e3e3e3; }
    .svc-ab-footer:empty { display: none; }
    .svc-ab-button { border: 1px solid #ccc; background: #fff; border-radius: 8px;
      padding: 6px 12px; font: inherit; cursor: pointer; }
    .svc-ab-button[data-variant="primary"] { background: #303030; color: #fff; border-color: #303030; }
    .svc-ab-button[tone="critical"] { background: #c70a24; color: #fff; border-color: #c70a24; }
    .svc-ab-savebar { position: fixed; top: 0; left: 0; right: 0; z-index: 2147483001;
      display: flex; justify-content: space-between; align-items: center; padding: 10px 16px;
      background: #1a1a1a; color: #fff; font: 14px/1.4 -apple-system, "Segoe UI", sans-serif; }
    .svc-ab-toasts { position: fixed; bottom: 24px; left: 50%; transform: translateX(-50%);
      z-index: 2147483002; display: flex; flex-direction: column; gap: 8px; align-items: center; }
    .svc-ab-toast { background: #1a1a1a; color: #fff; padding: 10px 16px; border-radius: 10px;
      font: 14px/1.4 -apple-system, "Segoe UI", sans-serif; }
    .svc-ab-toast[data-error="true"] { background: #c70a24; }
  `;
  function ensureStyle() {
    if (document.getElementById("svc-app-bridge-test-double-style")) return;
    const style = document.createElement("style");
    style.id = "svc-app-bridge-test-double-style";
    style.textContent = STYLE;
    document.head.appendChild(style);
  }
  ensureStyle();

  /** Buttons of a ui-title-bar or ui-save-bar, drawn outside and forwarding clicks. */
  function forwardedButtons(container) {
    if (!container) return [];
    return Array.from(container.querySelectorAll(":scope > button, :scope > section > button")).map(
      (original) => {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "svc-ab-button";
        button.textContent = original.textContent;
        for (const name of ["variant", "tone", "disabled", "loading"]) {
          if (original.hasAttribute(name)) button.setAttribute(name, original.getAttribute(name));
        }
        if (original.hasAttribute("variant")) {
          button.dataset.variant = original.getAttribute("variant");
        }
        button.addEventListener("click", () => original.click());
        return button;
      },
    );
  }

  // ---- web components ---------------------------------------------------------------------
  const modalsById = new Map();

  class InertElement extends HTMLElement {}

  class UiModal extends HTMLElement {
    #content;
    #overlay;
    connectedCallback() {
      if (this.id) modalsById.set(this.id, this);
    }
    disconnectedCallback() {
      if (this.id && modalsById.get(this.id) === this) modalsById.delete(this.id);
      this.#overlay?.remove();
    }
    /** Where @shopify/app-bridge-react portals the modal's content. */
    get content() {
      if (!this.#content) {
        this.#content = document.createElement("div");
        this.#content.className = "svc-ab-body";
      }
      return this.#content;
    }
    get open() {
      return Boolean(this.#overlay?.isConnected);
    }
    show() {
      record("modal.show", [this.id]);
      if (this.open) return;
      ensureStyle();
      const titleBar = this.querySelector("ui-title-bar");
      const overlay = document.createElement("div");
      overlay.className = "svc-ab-overlay";
      overlay.dataset.svcModal = this.id || "";
      overlay.setAttribute("role", "dialog");
      overlay.setAttribute("aria-modal", "true");
      const dialog = document.createElement("div");
      dialog.className = "svc-ab-dialog";
      dialog.dataset.variant = this.getAttribute("variant") || "base";
      const header = document.createElement("div");
      header.className = "svc-ab-header";
      const title = document.createElement("span");
      title.textContent = titleBar?.getAttribute("title") || "";
      overlay.setAttribute("aria-label", title.textContent);
      const close = document.createElement("button");
      close.type = "button";
      close.className = "svc-ab-close";
      close.setAttribute("aria-label", "Close");
      close.textContent = "×";
      close.addEventListener("click", () => this.hide());
      header.append(title, close);
      const footer = document.createElement("div");
      footer.className = "svc-ab-footer";
      footer.append(...forwardedButtons(titleBar));
      dialog.append(header, this.content, footer);
      overlay.append(dialog);
      document.body.appendChild(overlay);
      this.#overlay = overlay;
      this.dispatchEvent(new Event("show"));
    }
    hide() {
      record("modal.hide", [this.id]);
      if (!this.open) return;
      this.#overlay.remove();
      this.dispatchEvent(new Event("hide"));
    }
    toggle() {
      if (this.open) this.hide();
      else this.show();
    }
  }

  class UiSaveBar extends HTMLElement {
    #bar;
    get showing() {
      return Boolean(this.#bar?.isConnected);
    }
    show() {
      record("saveBar.show", [this.id]);
      if (this.showing) return Promise.resolve();
      ensureStyle();
      const bar = document.createElement("div");
      bar.className = "svc-ab-savebar";
      bar.dataset.svcSaveBar = this.id || "";
      const label = document.createElement("span");
      label.textContent = "Unsaved changes";
      const buttons = document.createElement("div");
      buttons.style.display = "flex";
      buttons.style.gap = "8px";
      buttons.append(...forwardedButtons(this));
      bar.append(label, buttons);
      document.body.appendChild(bar);
      this.#bar = bar;
      this.dispatchEvent(new Event("show"));
      return Promise.resolve();
    }
    hide() {
      record("saveBar.hide", [this.id]);
      if (!this.showing) return Promise.resolve();
      this.#bar.remove();
      this.dispatchEvent(new Event("hide"));
      return Promise.resolve();
    }
    toggle() {
      return this.showing ? this.hide() : this.show();
    }
    disconnectedCallback() {
      this.#bar?.remove();
    }
  }

  const define = (name, element) => {
    if (!customElements.get(name)) customElements.define(name, element);
  };
  define("ui-nav-menu", class extends InertElement {});
  define("ui-title-bar", class extends InertElement {});
  define("ui-modal", UiModal);
  define("ui-save-bar", UiSaveBar);

  // ---- the `shopify` global ---------------------------------------------------------------
  let toastCount = 0;
  const toast = {
    show(message, options = {}) {
      record("toast.show", [message, { isError: Boolean(options.isError) }]);
      ensureStyle();
      let stack = document.querySelector(".svc-ab-toasts");
      if (!stack) {
        stack = document.createElement("div");
        stack.className = "svc-ab-toasts";
        stack.setAttribute("role", "status");
        document.body.appendChild(stack);
      }
      const id = `toast-${++toastCount}`;
      const element = document.createElement("div");
      element.className = "svc-ab-toast";
      element.dataset.toastId = id;
      element.dataset.error = String(Boolean(options.isError));
      element.textContent = message;
      stack.appendChild(element);
      setTimeout(() => toast.hide(id), options.duration ?? 5000);
      return id;
    },
    hide(id) {
      record("toast.hide", [id]);
      document.querySelector(`.svc-ab-toast[data-toast-id="${id}"]`)?.remove();
    },
  };

  const byId = (id) => {
    const element = modalsById.get(id) || document.getElementById(id);
    if (!element) throw new Error(`App Bridge test double: no element with id ${id}`);
    return element;
  };

  window.shopify = {
    config: {
      apiKey: script?.dataset.apiKey ?? "",
      shop: harness.shop ?? query.get("shop") ?? "",
      host: harness.host ?? query.get("host") ?? "",
      locale: harness.locale ?? query.get("locale") ?? "en",
      appOrigins: [window.location.origin],
      debug: {},
      disabledFeatures: [],
    },
    environment: { embedded: true, mobile: false, pos: false },
    origin: "https://admin.shopify.com",
    idToken,
    toast,
    loading(isLoading) {
      record("loading", [isLoading]);
    },
    /** Answers the selection the test set in __svcAdminTest.resourcePickerSelection, else a cancel. */
    async resourcePicker(options) {
      record("resourcePicker", [options]);
      return window.__svcAdminTest?.resourcePickerSelection ?? undefined;
    },
    modal: {
      show: (id) => byId(id).show(),
      hide: (id) => byId(id).hide(),
      toggle: (id) => byId(id).toggle(),
    },
    saveBar: {
      show: (id) => byId(id).show(),
      hide: (id) => byId(id).hide(),
      toggle: (id) => byId(id).toggle(),
      leaveConfirmation: async () => {},
    },
    async user() {
      record("user", []);
      return { accountAccess: "Account owner" };
    },
  };
})();
