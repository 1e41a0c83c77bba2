// Protection offer (app block). Shows the plans of the selected variant and, when one is
// chosen, adds it to the cart in the same request as the product. Every failure leaves the
// offer hidden and the theme's own add-to-cart untouched. See docs/decisions/011.
(() => {
  if (window.svcOffer) return;
  window.svcOffer = true;

  const PROPERTY = "_svc_protected_product_ref";
  const ADD_PATH = /\/cart\/add(\.js)?\/?$/;
  const TIMEOUT_MS = 2500;
  const nativeFetch = window.fetch;
  const planRequests = new Map();

  const guard =
    (fn) =>
    (...args) => {
      try {
        return fn(...args);
      } catch (error) {
        console.error("svc-protection:", error);
      }
    };

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

  // Shopify's formatMoney: the {{placeholder}} of shop.money_format with the cents filled in.
  function formatMoney(cents, format) {
    const amount = (decimals, thousands = ",", point = ".") => {
      const [whole, fraction] = (cents / 100).toFixed(decimals).split(".");
      return whole.replace(/\B(?=(\d{3})+(?!\d))/g, thousands) + (fraction ? point + fraction : "");
    };
    const styles = {
      amount: [2],
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

  function planTitle(title, locale) {
    if (typeof title === "string") return title;
    return title[locale] || title[locale.split("-")[0]] || title.en || Object.values(title)[0];
  }

  function variantPrices(offer) {
    return Object.fromEntries(
      offer.dataset.variantPrices.split(",").map((pair) => pair.split(":")),
    );
  }

  // The nearest add-to-cart form around the block: the theme's own product form.
  function productForm(offer) {
    for (let node = offer.parentElement; node; node = node.parentElement) {
      const form = node.querySelector('form[action*="/cart/add"]');
      if (form) return form;
    }
  }

  function selectedVariantId(offer) {
    const input = productForm(offer)?.elements.namedItem("id");
    return (
      (input && input.value) ||
      new URLSearchParams(location.search).get("variant") ||
      offer.dataset.variantId
    );
  }

  function fetchPlans(offer, variantId, price) {
    const data = offer.dataset;
    const query = new URLSearchParams({
      variant_id: variantId,
      product_id: data.productId,
      price,
      currency: data.currency,
      user_session_id: userSessionId(),
      product_title: data.productTitle,
      product_brand: data.productBrand,
    });
    if (data.productCategory) query.set("product_category", data.productCategory);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
    return nativeFetch(`${data.proxy}/plans?${query}`, {
      signal: controller.signal,
      headers: { accept: "application/json" },
    })
      .then((response) => (response.ok ? response.json() : {}))
      .then((body) => ({
        plans: (Array.isArray(body.plans) ? body.plans : []).filter(
          (plan) => /^\d+$/.test(plan.variant_id) && Number.isInteger(plan.price),
        ),
        // The merchant's Settings; absent (never saved) means the block's own defaults.
        options: body.options || {},
      }))
      .finally(() => clearTimeout(timer));
  }

  function plansFor(offer, variantId) {
    const price = variantPrices(offer)[variantId];
    if (price === undefined) return Promise.resolve({ plans: [] });
    const key = `${variantId}:${price}`;
    if (!planRequests.has(key)) {
      const request = fetchPlans(offer, variantId, price);
      planRequests.set(key, request);
      // A failed lookup is not remembered: the next variant change tries again.
      request.catch(() => planRequests.delete(key));
    }
    return planRequests.get(key).catch(() => ({ plans: [] }));
  }

  function render(offer, variantId, { plans, options = {} }) {
    const data = offer.dataset;
    // The admin's heading replaces the block's own (setting or locale), always as text.
    const heading = offer.querySelector("[data-svc-heading]");
    offer.svcHeading ??= heading.textContent;
    const custom = typeof options.heading === "string" && options.heading.trim();
    heading.textContent = custom ? options.heading : offer.svcHeading;
    data.layout = options.layout === "compact" ? "compact" : "list";
    const template = offer.querySelector("[data-svc-plan-template]").content;
    const rows = plans.map((plan) => {
      const row = template.firstElementChild.cloneNode(true);
      const input = row.querySelector("[data-svc-plan]");
      input.value = plan.variant_id;
      input.dataset.for = variantId;
      row.querySelector("[data-svc-title]").textContent = planTitle(plan.title, data.locale);
      row.querySelector("[data-svc-price]").textContent = formatMoney(plan.price, data.moneyFormat);
      const details = row.querySelector("[data-svc-details]");
      if (
        details &&
        options.showInsuranceLink !== false &&
        /^https?:\/\//.test(plan.insurance_details_url)
      ) {
        details.href = plan.insurance_details_url;
      } else details?.remove();
      return row;
    });
    offer.querySelector("[data-svc-plans]").replaceChildren(...rows);
    offer.querySelector('input[value=""]').checked = true;
    data.state = rows.length ? "ready" : "empty";
  }

  function refresh(offer) {
    const variantId = selectedVariantId(offer);
    if (offer.svcVariantId === variantId) return;
    offer.svcVariantId = variantId;
    plansFor(offer, variantId).then(
      guard((answer) => offer.svcVariantId === variantId && render(offer, variantId, answer)),
    );
  }

  const refreshNow = () => document.querySelectorAll("[data-svc-offer]").forEach(guard(refresh));
  let scheduled = false;
  const refreshAll = () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      refreshNow();
    });
  };

  // The plan chosen for a variant, when an offer on the page shows that variant.
  function chosenPlan(variantId) {
    for (const input of document.querySelectorAll("[data-svc-offer] [data-svc-plan]:checked")) {
      if (input.dataset.for === String(variantId)) return input.value;
    }
  }

  const planItem = (planVariantId, productVariantId, quantity) => ({
    // Text, which Shopify's Ajax API takes: a JS number would round an ID past 2^53.
    id: String(planVariantId),
    quantity,
    properties: { [PROPERTY]: String(productVariantId) },
  });

  // Whether the last body withPlans paired was the theme's add of one item: the theme then
  // expects Shopify's answer to one item, not to the two it became.
  let pairedOne = false;

  // JSON bodies: {id, quantity, properties} or {items: [...]}. Each item with a chosen plan is
  // followed by its plan at the same quantity.
  function withPlansJson(body) {
    const payload = JSON.parse(body);
    if (JSON.stringify(payload).includes(PROPERTY)) return body;
    const { items, id, quantity, properties, selling_plan, ...rest } = payload;
    const list = items || [{ id, quantity, properties, selling_plan }];
    const withPlans = list.flatMap((item) => {
      const plan = chosenPlan(item.id);
      const count = Number(item.quantity) || 1;
      return plan ? [item, planItem(plan, item.id, count)] : [item];
    });
    if (withPlans.length === list.length) return body;
    pairedOne = !items;
    return JSON.stringify({ ...rest, items: withPlans });
  }

  // Form bodies (native form POST, FormData, URLSearchParams): one item becomes items[] with
  // the plan as the second item, the form's other fields (sections, form_type...) kept as is.
  function withPlansForm(form) {
    const entries = [...form.entries()];
    const id = form.get("id");
    const plan = id && !form.has("items[][id]") && chosenPlan(id);
    if (!plan || entries.some(([key]) => key.includes(PROPERTY))) return false;
    const quantity = form.get("quantity") || "1";
    const itemKey = /^(id|quantity|selling_plan|properties\[.*\])$/;
    entries.forEach(([key]) => form.delete(key));
    for (const [key, value] of entries) {
      if (itemKey.test(key)) form.append(`items[]${key.replace(/^(\w+)/, "[$1]")}`, value);
    }
    if (!form.has("items[][quantity]")) form.append("items[][quantity]", quantity);
    form.append("items[][id]", plan);
    form.append("items[][quantity]", quantity);
    form.append(`items[][properties][${PROPERTY}]`, id);
    for (const [key, value] of entries) if (!itemKey.test(key)) form.append(key, value);
    pairedOne = true;
    return true;
  }

  function withPlans(body) {
    if (typeof body === "string") {
      if (/^\s*\{/.test(body)) return withPlansJson(body);
      const form = new URLSearchParams(body);
      return withPlansForm(form) ? form.toString() : body;
    }
    if (body instanceof FormData || body instanceof URLSearchParams) {
      // A copy: the theme may still read its own FormData after the request.
      const copy = new body.constructor();
      for (const [key, value] of body) copy.append(key, value);
      if (withPlansForm(copy)) return copy;
    }
    return body;
  }

  const isAddUrl = (url) => ADD_PATH.test(new URL(url, location.href).pathname);

  // Shopify answers an add of one item with that line at the top level (Dawn's cart
  // notification reads its `key`), and an add of several with `items`. The product's `id` and
  // `key` go back in front of the answer's text; the rest stays as sent, IDs past 2^53 exact.
  function asOneItemAnswer(response) {
    if (!response.ok) return response;
    return response
      .clone()
      .text()
      .then((text) => {
        const line = JSON.parse(text).items.find((item) => !item.properties?.[PROPERTY]);
        const head = `{"id":${line.key.split(":")[0]},"key":${JSON.stringify(line.key)},`;
        return new Response(head + text.slice(text.indexOf("{") + 1), {
          status: response.status,
          headers: { "content-type": "application/json" },
        });
      })
      .catch(() => response);
  }

  window.fetch = function fetch(input, init) {
    pairedOne = false;
    try {
      if (init && init.body && isAddUrl(input instanceof Request ? input.url : input)) {
        init = { ...init, body: withPlans(init.body) };
      }
    } catch (error) {
      console.error("svc-protection:", error);
    }
    const response = nativeFetch(input, init);
    return pairedOne ? response.then(asOneItemAnswer) : response;
  };

  const { open, send } = XMLHttpRequest.prototype;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    this.svcAdd = guard(isAddUrl)(String(url));
    return open.call(this, method, url, ...rest);
  };
  XMLHttpRequest.prototype.send = function (body) {
    if (this.svcAdd && body) body = guard(withPlans)(body) ?? body;
    return send.call(this, body);
  };

  // A native POST of the product form: the plan joins the form's own entry list.
  let submitting;
  document.addEventListener(
    "submit",
    (event) => {
      submitting = event;
      setTimeout(() => (submitting = undefined));
    },
    true,
  );
  document.addEventListener(
    "formdata",
    guard((event) => {
      const form = event.target;
      if (submitting?.target === form && !submitting.defaultPrevented && isAddUrl(form.action)) {
        withPlansForm(event.formData);
      }
    }),
    true,
  );

  // Variant changes: Dawn sets the form's hidden id input (an attribute change) and the URL;
  // other themes fire change events or re-render the section. Each only schedules a refresh.
  for (const type of ["change", "variant:change", "popstate"]) addEventListener(type, refreshAll);
  for (const name of ["pushState", "replaceState"]) {
    const original = history[name];
    history[name] = function (...args) {
      const result = original.apply(this, args);
      refreshAll();
      return result;
    };
  }
  new MutationObserver(refreshAll).observe(document.documentElement, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ["value"],
  });
  refreshNow();
})();
