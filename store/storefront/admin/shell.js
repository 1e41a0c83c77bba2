/*
 * The local admin's page around the app's iframe (store/storefront/admin.ts). It answers the App
 * Bridge stand-in inside the frame (admin/app-bridge.js) over postMessage: fresh session tokens
 * (minted by the store), and it draws what the app asks the admin to draw: the navigation, the
 * title, toasts, a loading bar and the resource picker. Messages are taken only from the frame's
 * window at the app's origin, and sent only there.
 */
(() => {
  "use strict";

  const config = window.__svcAdmin;
  const MESSAGE = "svc-app-bridge";
  const frame = document.getElementById("svc-admin-frame");
  const navList = document.getElementById("svc-admin-app-nav");
  const appEntry = document.querySelector(".svc-admin-nav-app");
  const title = document.getElementById("svc-admin-title");
  const progress = document.getElementById("svc-admin-progress");
  const toasts = document.getElementById("svc-admin-toasts");
  const picker = document.getElementById("svc-admin-picker");

  let nav = [];
  let frameLocation = null;
  let appTitle = "";
  /** Navigations asked for, and frame states received: a frame that never answers is reloaded. */
  let navigations = 0;
  let frameStates = 0;

  function toFrame(kind, data) {
    frame.contentWindow?.postMessage({ source: MESSAGE, kind, ...data }, config.appOrigin);
  }

  async function freshToken() {
    const answer = await fetch(`${config.adminBase}/session-token`, { method: "POST" });
    if (!answer.ok) throw new Error(`the store answered ${answer.status}`);
    return (await answer.json()).token;
  }

  /** Loads the app's page in the frame, as the admin does, with a fresh session token. */
  async function loadFrame(appHref) {
    const url = new URL(config.appBase + appHref);
    url.searchParams.set("embedded", "1");
    url.searchParams.set("shop", config.shop);
    url.searchParams.set("host", config.host);
    url.searchParams.set("locale", config.locale);
    url.searchParams.set("id_token", await freshToken());
    frameLocation = null;
    frame.src = url.toString();
  }

  /** The app's router goes there; a frame that does not answer within 3 s is loaded afresh. */
  function navigate(appHref) {
    const ticket = ++navigations;
    if (frameLocation === null) {
      void loadFrame(appHref);
      return;
    }
    const statesBefore = frameStates;
    toFrame("navigate", { href: appHref });
    setTimeout(() => {
      if (ticket === navigations && frameStates === statesBefore) void loadFrame(appHref);
    }, 3000);
  }

  function appHrefOfAdminPath(pathname, search) {
    const rest = pathname.slice(config.adminBase.length);
    return (rest === "" ? "/" : rest) + search;
  }

  function isUnder(pathname, href) {
    const base = href.split("?")[0].replace(/\/+$/, "");
    return base !== "" && (pathname === base || pathname.startsWith(`${base}/`));
  }

  function render() {
    const pathname = (frameLocation ?? "/").split("?")[0];
    const home = nav.find((item) => item.home);
    const items = nav.filter((item) => !item.home);
    let active = null;
    for (const item of items) {
      if (isUnder(pathname, item.href) && (!active || item.href.length > active.href.length)) {
        active = item;
      }
    }
    if (home) {
      appEntry.dataset.appHref = home.href;
      appEntry.href = config.adminBase + home.href;
    }
    if (active) appEntry.removeAttribute("aria-current");
    else appEntry.setAttribute("aria-current", "page");
    navList.replaceChildren(
      ...items.map((item) => {
        const entry = document.createElement("li");
        const link = document.createElement("a");
        link.href = config.adminBase + item.href;
        link.dataset.appHref = item.href;
        link.textContent = item.label;
        if (item === active) link.setAttribute("aria-current", "page");
        entry.append(link);
        return entry;
      }),
    );
    title.textContent = appTitle || active?.label || config.appName;
    document.title = `${title.textContent} · ${config.appName} · ${config.shopName}`;
  }

  function showToast(message) {
    const toast = document.createElement("div");
    toast.className = "svc-admin-toast";
    toast.dataset.toastId = message.id;
    toast.dataset.error = String(Boolean(message.isError));
    const text = document.createElement("span");
    text.textContent = message.message;
    const close = document.createElement("button");
    close.type = "button";
    close.setAttribute("aria-label", "Dismiss");
    close.textContent = "×";
    close.addEventListener("click", () => toast.remove());
    toast.append(text, close);
    toasts.append(toast);
    setTimeout(() => toast.remove(), Math.min(Number(message.duration) || 5000, 30000));
  }

  async function openPicker(requestId, options) {
    const type = options.type === "variant" ? "variant" : "product";
    const multiple = options.multiple !== false && options.multiple !== 1;
    let items = [];
    try {
      const answer = await fetch(`${config.adminBase}/resource-picker`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ type }),
      });
      items = (await answer.json()).items ?? [];
    } catch (error) {
      showToast({ id: "picker", message: `Resource picker: ${error}`, isError: true });
    }
    const form = document.createElement("form");
    form.method = "dialog";
    const header = document.createElement("header");
    const heading = document.createElement("span");
    heading.id = "svc-admin-picker-title";
    heading.textContent = type === "variant" ? "Select variants" : "Select products";
    header.append(heading);
    const list = document.createElement("ul");
    items.forEach((item, index) => {
      const entry = document.createElement("li");
      const label = document.createElement("label");
      const input = document.createElement("input");
      input.type = multiple ? "checkbox" : "radio";
      input.name = "item";
      input.value = String(index);
      const name = document.createElement("span");
      name.textContent = item.displayName ?? item.title;
      label.append(input, name);
      if (item.price) {
        const price = document.createElement("span");
        price.className = "svc-admin-price";
        price.textContent = item.price;
        label.append(price);
      }
      entry.append(label);
      list.append(entry);
    });
    if (items.length === 0) {
      const empty = document.createElement("li");
      empty.className = "svc-admin-empty";
      empty.textContent = "The shop has no products.";
      list.append(empty);
    }
    const footer = document.createElement("footer");
    const cancel = document.createElement("button");
    cancel.className = "svc-admin-button";
    cancel.value = "cancel";
    cancel.textContent = "Cancel";
    const select = document.createElement("button");
    select.className = "svc-admin-button";
    select.dataset.variant = "primary";
    select.value = "select";
    select.textContent = "Select";
    footer.append(cancel, select);
    form.append(header, list, footer);
    picker.replaceChildren(form);
    picker.returnValue = "";
    picker.addEventListener(
      "close",
      () => {
        const chosen = Array.from(list.querySelectorAll("input:checked")).map(
          (input) => items[Number(input.value)],
        );
        const selection = picker.returnValue === "select" ? chosen : undefined;
        toFrame("answer", { requestId, value: selection });
      },
      { once: true },
    );
    picker.showModal();
  }

  window.addEventListener("message", (event) => {
    if (event.source !== frame.contentWindow || event.origin !== config.appOrigin) return;
    const message = event.data;
    if (!message || message.source !== MESSAGE) return;
    switch (message.kind) {
      case "idToken":
        freshToken().then(
          (token) => toFrame("idToken", { requestId: message.requestId, token }),
          (error) => toFrame("idToken", { requestId: message.requestId, error: String(error) }),
        );
        break;
      case "frameState":
        frameStates += 1;
        nav = Array.isArray(message.nav) ? message.nav : [];
        appTitle = typeof message.title === "string" ? message.title : "";
        if (typeof message.location === "string") {
          frameLocation = message.location;
          const adminUrl = config.adminBase + (frameLocation === "/" ? "" : frameLocation);
          if (adminUrl !== location.pathname + location.search) {
            history.replaceState(null, "", adminUrl);
          }
        }
        render();
        break;
      case "toast":
        showToast(message);
        break;
      case "toastHide":
        document
          .querySelector(`.svc-admin-toast[data-toast-id="${CSS.escape(message.id)}"]`)
          ?.remove();
        break;
      case "loading":
        progress.hidden = !message.isLoading;
        break;
      case "adminLink": {
        // The local admin has no order or product pages: the store's control API has the data.
        const [, kind, id] = /^shopify:admin\/(\w+)\/(\d+)/.exec(String(message.href)) ?? [];
        showToast({
          id: `link-${Date.now()}`,
          message:
            kind && id
              ? `The local admin has no ${kind} page: see /__store/shops/${config.shop}/${kind}/${id}`
              : `The local admin cannot open ${message.href}`,
          isError: false,
        });
        break;
      }
      case "resourcePicker":
        void openPicker(message.requestId, message.options ?? {});
        break;
    }
  });

  document.querySelector(".svc-admin-nav").addEventListener("click", (event) => {
    const link = event.target.closest("a[data-app-href]");
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    history.pushState(null, "", link.href);
    navigate(link.dataset.appHref);
  });

  window.addEventListener("popstate", () => {
    navigate(appHrefOfAdminPath(location.pathname, location.search));
  });
})();
