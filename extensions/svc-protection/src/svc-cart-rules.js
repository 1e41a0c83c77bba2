// Protection cart rules (app embed). After every cart change (the theme's fetch or XHR calls to
// /cart/add|change|update|clear, or a page load that finds the cart changed) it runs the cart
// update loop through the app proxy, then refreshes the theme's cart sections. Its own calls
// use the fetch it found, so they never trigger it again. See docs/decisions/011.
(() => {
  const config = document.querySelector("[data-svc-cart-rules]");
  if (!config || window.svcCartRules) return;
  window.svcCartRules = true;

  const PROPERTY = "_svc_protected_product_ref";
  const SESSION_ATTRIBUTE = "_svc_user_session_id";
  const CART_CHANGE = /\/cart\/(add|change|update|clear)(\.js)?\/?$/;
  const MAX_ROUNDS = 5;
  const TIMEOUT_MS = 2500;
  const SYNCED_KEY = "svc_cart_synced";
  const { proxy, locale, moneyFormat } = config.dataset;
  const root = (window.Shopify?.routes?.root || "/").replace(/\/?$/, "/");
  const nativeFetch = window.fetch;
  const planRequests = new Map();

  const report = (error) => console.error("svc-protection:", error);

  function userSessionId() {
    const key = "svc_user_session_id";
    const fresh = () =>
      crypto.randomUUID
        ? crypto.randomUUID()
        : "10000000-1000-4000-8000-100000000000".replace(/[018]/g, (c) =>
            (c ^ (crypto.getRandomValues(new Uint8Array(1))[0] & (15 >> (c / 4)))).toString(16),
          );
    try {
      let id = localStorage.getItem(key);
      if (!id) localStorage.setItem(key, (id = fresh()));
      return id;
    } catch {
      const cookie = document.cookie.match(/(?:^|; )svc_user_session_id=([\w-]+)/);
      if (cookie) return cookie[1];
      window.svcSessionId ||= fresh();
      document.cookie = `${key}=${window.svcSessionId}; path=/; max-age=31536000; samesite=lax`;
      return window.svcSessionId;
    }
  }

  function formatMoney(cents, format) {
    const amount = (decimals, thousands = ",", point = ".") => {
      const [whole, fraction] = (cents / 100).toFixed(decimals).split(".");
      return whole.replace(/\B(?=(\d{3})+(?!\d))/g, thousands) + (fraction ? point + fraction : "");
    };
    const styles = {
      amount_no_decimals: [0],
      amount_with_comma_separator: [2, ".", ","],
      amount_no_decimals_with_comma_separator: [0, ".", ","],
      amount_with_apostrophe_separator: [2, "'", "."],
      amount_with_space_separator: [2, " ", ","],
      amount_no_decimals_with_space_separator: [0, " ", ","],
      amount_with_period_and_space_separator: [2, " ", "."],
    };
    return format.replace(/\{\{\s*(\w+)\s*\}\}/, (_, name) => amount(...(styles[name] || [2])));
  }

  function request(url, init = {}) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
    return nativeFetch(url, { ...init, signal: controller.signal })
      .then((response) => {
        if (!response.ok) throw new Error(`${init.method || "GET"} ${url}: ${response.status}`);
        return response.json();
      })
      .finally(() => clearTimeout(timer));
  }

  const postJson = (url, body) =>
    request(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
    });

  // /cart.js writes IDs as JSON numbers, which JSON.parse rounds past 2^53; a line's key
  // ("<variant id>:<hash>") holds its variant ID exactly.
  const variantOf = (item) => item.key.split(":")[0];
  const exactIds = (cart) => ({
    ...cart,
    items: cart.items.map((item) => ({ ...item, variant_id: variantOf(item) })),
  });

  const signature = (cart) => cart.items.map((item) => `${item.key}:${item.quantity}`).join();

  function remembered() {
    try {
      return sessionStorage.getItem(SYNCED_KEY) || "";
    } catch {
      return "";
    }
  }

  function remember(cart) {
    try {
      sessionStorage.setItem(SYNCED_KEY, signature(cart));
    } catch {
      // Private mode: the next page load reports the cart again, which is harmless.
    }
  }

  // The cart update loop: report the cart, apply the answered quantities, report again.
  async function runCartUpdates(cart) {
    let changed = false;
    for (let round = 1; ; round++) {
      const answer = await postJson(`${proxy}/cart_updates`, {
        user_session_id: userSessionId(),
        cart: exactIds(cart),
      });
      const actions = (answer.actions || []).filter(
        (action) => action.type === "update_line_item" && action.line_item_key,
      );
      if (!actions.length) return { cart, changed };
      if (round > MAX_ROUNDS) {
        // eslint-disable-next-line no-console
        console.warn(`svc-protection: cart still has actions after ${MAX_ROUNDS} rounds`, actions);
        return { cart, changed };
      }
      for (const action of actions) {
        cart = await postJson(`${root}cart/change.js`, {
          id: action.line_item_key,
          quantity: action.quantity,
        });
      }
      changed = true;
    }
  }

  function cartSectionIds() {
    const ids = new Set();
    for (const section of document.querySelectorAll('[id^="shopify-section-"]')) {
      const id = section.id.slice("shopify-section-".length);
      if (id.includes("cart")) ids.add(id);
    }
    for (const element of document.querySelectorAll("#main-cart-items, #main-cart-footer")) {
      if (element.dataset.id) ids.add(element.dataset.id);
    }
    if (document.querySelector("cart-drawer, #CartDrawer")) ids.add("cart-drawer");
    if (document.getElementById("cart-icon-bubble")) ids.add("cart-icon-bubble");
    return [...ids].slice(0, 5);
  }

  // Puts a rendered section in place: its wrapper, an element with the section's id
  // (Dawn's #cart-icon-bubble) or the first element inside it whose id is on the page
  // (Dawn's #CartDrawer).
  function replaceSection(id, html) {
    const fresh = new DOMParser().parseFromString(html, "text/html").body.firstElementChild;
    if (!fresh) return;
    const byId = document.getElementById(id);
    if (byId && !document.getElementById(fresh.id)) return (byId.innerHTML = fresh.innerHTML);
    for (const source of [fresh, ...fresh.querySelectorAll("[id]")]) {
      const target = document.getElementById(source.id);
      if (target) return (target.innerHTML = source.innerHTML);
    }
  }

  async function refreshCartUi() {
    const ids = cartSectionIds();
    if (!ids.length) {
      if (/\/cart\/?$/.test(location.pathname)) location.reload();
      return;
    }
    const sections = await request(`${location.pathname}?sections=${ids.join(",")}`);
    for (const [id, html] of Object.entries(sections)) if (html) replaceSection(id, html);
  }

  function plansFor(item, currency) {
    const key = `${variantOf(item)}:${item.price}`;
    if (!planRequests.has(key)) {
      const query = new URLSearchParams({
        variant_id: variantOf(item),
        price: item.price,
        currency,
        user_session_id: userSessionId(),
        product_title: item.product_title,
        product_brand: item.vendor || "",
      });
      if (item.product_type) query.set("product_category", item.product_type);
      planRequests.set(
        key,
        request(`${proxy}/plans?${query}`).then((body) => body.plans || []),
      );
    }
    return planRequests.get(key).catch(() => []);
  }

  // The embed's optional offer: a button under each unprotected line of Dawn-like carts.
  function offerPlansInCart(cart) {
    const protectedIds = new Set(cart.items.map((item) => item.properties?.[PROPERTY]));
    cart.items.forEach(async (item, index) => {
      const rows = document.querySelectorAll(
        `#CartItem-${index + 1}, #CartDrawer-Item-${index + 1}`,
      );
      if (!rows.length || item.properties?.[PROPERTY] || protectedIds.has(variantOf(item))) {
        return;
      }
      const [plan] = await plansFor(item, cart.currency);
      if (!plan) return;
      const title = plan.title[locale] || plan.title[locale.split("-")[0]] || plan.title.en;
      for (const row of rows) {
        if (row.querySelector(".svc-cart-offer")) continue;
        const box = document.createElement("div");
        const button = document.createElement("button");
        box.className = "svc-cart-offer";
        button.className = "svc-cart-offer__add";
        button.type = "button";
        button.textContent = `${config.dataset.labelAdd}: ${title} (${formatMoney(plan.price, moneyFormat)})`;
        button.addEventListener("click", () => {
          button.disabled = true;
          postJson(`${root}cart/add.js`, {
            items: [
              {
                id: String(plan.variant_id),
                quantity: item.quantity,
                properties: { [PROPERTY]: variantOf(item) },
              },
            ],
          })
            .then(() => sync({ refresh: true }))
            .catch(report);
        });
        box.append(button);
        (row.querySelector(".cart-item__details") || row).append(box);
      }
    });
  }

  // The session that reports the cart goes with it to the order (its note_attributes), so the
  // app can confirm the checkout with the same user_session_id as the /cart_updates calls
  // (decision 033). Written once per cart and session; /cart/update.js keeps other attributes.
  async function tagCartWithSession(cart) {
    const session = userSessionId();
    if (!cart.items.length || cart.attributes?.[SESSION_ATTRIBUTE] === session) return cart;
    return postJson(`${root}cart/update.js`, { attributes: { [SESSION_ATTRIBUTE]: session } });
  }

  let running = false;
  let again = false;
  async function sync(options = {}) {
    if (running) return void (again = true);
    running = true;
    try {
      const cart = await request(`${root}cart.js`);
      let result = { cart, changed: false };
      if (!options.onlyIfChanged || signature(cart) !== remembered()) {
        result = await runCartUpdates(cart);
        result.cart = await tagCartWithSession(result.cart);
        remember(result.cart);
      }
      if (result.changed || options.refresh) await refreshCartUi();
      document.dispatchEvent(new CustomEvent("svc:cart-synced", { detail: result.cart }));
      if (config.dataset.offerInCart === "true") offerPlansInCart(result.cart);
    } catch (error) {
      report(error);
    } finally {
      running = false;
      if (again) {
        again = false;
        sync();
      }
    }
  }

  let timer;
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(sync, 50);
  };

  const isCartChange = (url) => {
    try {
      return CART_CHANGE.test(new URL(url, location.href).pathname);
    } catch {
      return false;
    }
  };

  window.fetch = function fetch(input, init) {
    const response = nativeFetch(input, init);
    if (isCartChange(input instanceof Request ? input.url : input)) {
      response.then(
        (answer) => answer.ok && schedule(),
        () => {},
      );
    }
    return response;
  };

  const { open } = XMLHttpRequest.prototype;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    if (isCartChange(String(url))) {
      this.addEventListener("load", () => this.status < 400 && schedule());
    }
    return open.call(this, method, url, ...rest);
  };

  // A native form POST reloads the page: a cart that changed since the last run is reported.
  // Once the page has loaded and the browser is idle: the check's requests (/cart.js, the
  // proxy) then never compete with the theme's own for the first paint (Lighthouse on Dawn's
  // cart page). Cart changes made meanwhile are caught by the wrappers above.
  const idle = window.requestIdleCallback || ((run) => setTimeout(run, 1));
  const firstSync = () => idle(() => sync({ onlyIfChanged: true }), { timeout: 1000 });
  if (document.readyState === "complete") firstSync();
  else addEventListener("load", firstSync, { once: true });
})();
