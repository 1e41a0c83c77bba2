/*
 * App Bridge STAND-IN for development and tests. This is NOT Shopify's code and NOT Shopify's CDN
 * script: it stands in for what the app uses of App Bridge, and no more.
 *
 * The app loads App Bridge from https://cdn.shopify.com/shopifycloud/app-bridge.js (AppProvider
 * from @shopify/shopify-app-remix/react). Offline, against the local store, the app loads this
 * file from the store instead (`<store>/cdn/shopifycloud/app-bridge.js`, decision 030); the admin
 * browser tests answer the CDN URL with it too. It runs in one of three places:
 *
 * - the local store's embedded admin (`/admin/apps/<handle>`, store/storefront/admin.ts): the page
 *   is the admin's iframe; session tokens come from the admin shell (which has the store mint them
 *   with the app's secret), and the navigation, the title, toasts and navigations go up to the
 *   shell by postMessage, which draws them around the frame;
 * - a test harness page (test/admin/harness.ts), which sets window.__svcAdminTest and the exposed
 *   function window.__svcFreshIdToken; toasts are drawn in the page;
 * - anywhere else: idToken() fails, as App Bridge does outside the admin.
 *
 * In every case:
 * - the `shopify` global: config, idToken(), toast, loading, resourcePicker, modal, saveBar,
 *   environment; every call is recorded in window.__svcAppBridgeCalls for the tests;
 * - same-origin fetch carries `Authorization: Bearer <session token>`, as App Bridge's fetch
 *   interception does in production (Remix data requests and form submissions);
 * - the web components the app renders (ui-nav-menu, ui-title-bar, ui-modal, ui-save-bar) as
 *   custom elements. The admin draws the navigation and the title bar outside the app's iframe,
 *   so they stay hidden here; a modal or save bar that is shown is drawn plainly in the page,
 *   with its title-bar buttons forwarding clicks to the app's own buttons, as App Bridge does.
 *
 * Nothing here knows the app's secret.
 */
(() => {
  "use strict";

  const harness = window.__svcAdminTest || {};
  const script = document.currentScript;
  const query = new URLSearchParams(window.location.search);
  /** Every call the app made to the `shopify` global, in order: { api, args }. */
  const calls = (window.__svcAppBridgeCalls = []);
  const record = (api, args) => calls.push({ api, args: JSON.parse(JSON.stringify(args ?? [])) });

  // The local store's admin serves this script and frames the app: its origin is the shell's.
  const scriptOrigin = script?.src ? new URL(script.src, window.location.href).origin : null;
  const inAdminFrame =
    !window.__svcAdminTest &&
    window.parent !== window &&
    scriptOrigin !== null &&
    scriptOrigin !== window.location.origin;
  const MESSAGE = "svc-app-bridge";

  function toShell(kind, data) {
    if (inAdminFrame) window.parent.postMessage({ source: MESSAGE, kind, ...data }, scriptOrigin);
  }

  const pendingTokens = new Map();
  const pendingAnswers = new Map();
  /** A question the merchant answers in the admin (the resource picker); undefined: cancelled. */
  function askShell(kind, data) {
    const requestId = ++tokenRequests;
    return new Promise((resolve) => {
      pendingAnswers.set(requestId, resolve);
      toShell(kind, { requestId, ...data });
    });
  }
  let tokenRequests = 0;
  let cachedToken = null;
  window.addEventListener("message", (event) => {
    if (!inAdminFrame || event.source !== window.parent || event.origin !== scriptOrigin) return;
    const message = event.data;
    if (!message || message.source !== MESSAGE) return;
    if (message.kind === "answer") {
      const pending = pendingAnswers.get(message.requestId);
      pendingAnswers.delete(message.requestId);
      pending?.(message.value);
    } else if (message.kind === "idToken") {
      const pending = pendingTokens.get(message.requestId);
      pendingTokens.delete(message.requestId);
      if (!pending) return;
      if (message.token) pending.resolve(message.token);
      else pending.reject(new Error(`App Bridge stand-in: no session token (${message.error})`));
    } else if (message.kind === "navigate") {
      navigateInApp(message.href);
    }
  });

  /** The token's `exp` claim in ms, so a token is reused while it has 15 s or more left. */
  function expiresAt(token) {
    try {
      const payload = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
      return JSON.parse(atob(payload)).exp * 1000;
    } catch {
      return 0;
    }
  }

  function tokenFromShell() {
    if (cachedToken && expiresAt(cachedToken) - Date.now() > 15_000) {
      return Promise.resolve(cachedToken);
    }
    const requestId = ++tokenRequests;
    return new Promise((resolve, reject) => {
      pendingTokens.set(requestId, { resolve, reject });
      toShell("idToken", { requestId });
      setTimeout(() => {
        if (!pendingTokens.delete(requestId)) return;
        reject(new Error("App Bridge stand-in: the admin gave no session token within 10 s"));
      }, 10_000);
    }).then((token) => (cachedToken = token));
  }

  async function idToken() {
    record("idToken", []);
    if (inAdminFrame) return tokenFromShell();
    if (typeof window.__svcFreshIdToken === "function") return window.__svcFreshIdToken();
    if (harness.idToken) return harness.idToken;
    throw new Error("App Bridge stand-in: not in an admin, so there is no session token");
  }

  // As App Bridge does on the library's bounce page (/auth/session-token?shopify-reload=…): a
  // fresh token, then the page the app wanted, with it.
  const reloadTo = query.get("shopify-reload");
  if (reloadTo) {
    idToken().then((token) => {
      const target = new URL(reloadTo, window.location.href);
      if (target.origin !== window.location.origin) return;
      target.searchParams.set("id_token", token);
      window.location.replace(target.toString());
    });
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
      const id = `toast-${++toastCount}`;
      if (inAdminFrame) {
        // The admin draws toasts over the whole page, outside the app's frame.
        toShell("toast", {
          id,
          message: String(message),
          isError: Boolean(options.isError),
          duration: options.duration ?? 5000,
        });
        return id;
      }
      ensureStyle();
      let stack = document.querySelector(".svc-ab-toasts");
      if (!stack) {
        stack = document.createElement("div");
        stack.className = "svc-ab-toasts";
        stack.setAttribute("role", "status");
        document.body.appendChild(stack);
      }
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
      toShell("toastHide", { id });
      document.querySelector(`.svc-ab-toast[data-toast-id="${id}"]`)?.remove();
    },
  };

  const byId = (id) => {
    const element = modalsById.get(id) || document.getElementById(id);
    if (!element) throw new Error(`App Bridge stand-in: no element with id ${id}`);
    return element;
  };

  // ---- the admin around the frame: navigation, title and location ------------------------
  /** The app's page as the admin shows it in its own URL: without the embedding parameters. */
  function appLocation() {
    const url = new URL(window.location.href);
    for (const name of ["embedded", "shop", "host", "id_token", "locale", "hmac", "timestamp"]) {
      url.searchParams.delete(name);
    }
    return url.pathname + url.search;
  }

  let lastFrameState = "";
  function sendFrameState() {
    const menu = document.querySelector("ui-nav-menu");
    const nav = menu
      ? Array.from(menu.querySelectorAll("a")).map((link) => ({
          label: (link.textContent || "").trim(),
          href: link.getAttribute("href") || "",
          home: link.getAttribute("rel") === "home",
        }))
      : [];
    const titleBar = Array.from(document.querySelectorAll("ui-title-bar")).find(
      (bar) => !bar.closest("ui-modal"),
    );
    const state = {
      nav,
      title: titleBar?.getAttribute("title") || "",
      location: appLocation(),
    };
    const text = JSON.stringify(state);
    if (text === lastFrameState) return;
    lastFrameState = text;
    toShell("frameState", state);
  }

  /** A click in the admin's navigation: the app's router goes there, as with App Bridge. */
  function navigateInApp(href) {
    if (typeof href !== "string" || !href.startsWith("/")) return;
    if (!window.__remixRouter) {
      window.location.assign(href);
      return;
    }
    // AppProvider navigates on `shopify:navigate`, reading the href of the event's target.
    const link = document.createElement("a");
    link.setAttribute("href", href);
    link.hidden = true;
    document.body.appendChild(link);
    link.dispatchEvent(new CustomEvent("shopify:navigate", { bubbles: true }));
    link.remove();
  }

  if (inAdminFrame) {
    // `shopify:admin/…` links open the admin's own pages; the local admin has none, so it says so.
    document.addEventListener("click", (event) => {
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!link || !link.getAttribute("href").startsWith("shopify:")) return;
      event.preventDefault();
      toShell("adminLink", { href: link.getAttribute("href") });
    });
    let scheduled = false;
    const schedule = () => {
      if (scheduled) return;
      scheduled = true;
      // A timer, not requestAnimationFrame: Chromium may hold back frames of a cross-origin iframe.
      setTimeout(() => {
        scheduled = false;
        sendFrameState();
      }, 30);
    };
    for (const name of ["pushState", "replaceState"]) {
      const original = history[name].bind(history);
      history[name] = (...args) => {
        const result = original(...args);
        schedule();
        return result;
      };
    }
    window.addEventListener("popstate", schedule);
    const start = () => {
      new MutationObserver(schedule).observe(document.documentElement, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
        attributeFilter: ["title", "href"],
      });
      schedule();
    };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
    else start();
  }

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
      toShell("loading", { isLoading: Boolean(isLoading) });
    },
    /** Answers the selection the test set in __svcAdminTest.resourcePickerSelection, else a cancel. */
    async resourcePicker(options) {
      record("resourcePicker", [options]);
      if (inAdminFrame) return askShell("resourcePicker", { options: options ?? {} });
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
