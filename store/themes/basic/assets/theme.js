// The basic theme's behaviour, in one small script: the variant picker and the product form
// (added with /cart/add.js), the cart drawer, and the quantities of the cart page and the drawer
// (/cart/change.js). After every change the cart's sections come back in the same answer
// (Shopify's Section Rendering API, `sections`) and replace what the page shows.
(() => {
  const root = (window.Shopify?.routes?.root || "/").replace(/\/?$/, "/");
  const status = () => document.querySelector("[data-cart-status]");

  const announce = (text) => {
    const region = status();
    if (region) region.textContent = text;
  };

  // --- sections ----------------------------------------------------------------------------

  /** The cart's sections on this page: the cart page's, the drawer's, the header's count. */
  function cartSectionIds() {
    const ids = new Set();
    for (const element of document.querySelectorAll("[data-cart-section]")) {
      ids.add(element.dataset.cartSection);
    }
    return [...ids];
  }

  /** Puts a rendered section in place: its wrapper's content, or that of the element by its id. */
  function replaceSection(id, html) {
    const target = document.getElementById(`shopify-section-${id}`) || document.getElementById(id);
    const fresh = new DOMParser().parseFromString(html, "text/html").body.firstElementChild;
    if (target && fresh) target.innerHTML = fresh.innerHTML;
  }

  /** Replaces the sections of an answer, keeping focus on the same control of the same line. */
  function applySections(sections) {
    const focused = document.activeElement;
    const line = focused?.closest?.("[data-line-key]")?.dataset.lineKey;
    const control = focused?.matches?.("[data-line-quantity]")
      ? "[data-line-quantity]"
      : focused?.dataset?.lineStep
        ? `[data-line-step="${focused.dataset.lineStep}"]`
        : undefined;
    const inDrawer = Boolean(focused?.closest?.(".cart-drawer"));
    for (const [id, html] of Object.entries(sections || {})) if (html) replaceSection(id, html);
    if (document.activeElement && document.activeElement !== document.body) return;
    const again =
      line && control
        ? document.querySelector(`[data-line-key="${CSS.escape(line)}"] ${control}`)
        : undefined;
    if (again) again.focus();
    else if (inDrawer) document.getElementById("CartDrawerPanel")?.focus();
  }

  async function postCart(path, body) {
    const response = await fetch(`${root}${path}`, {
      method: "POST",
      headers: {
        Accept: "application/json",
        "X-Requested-With": "XMLHttpRequest",
        ...(body instanceof FormData ? {} : { "Content-Type": "application/json" }),
      },
      body: body instanceof FormData ? body : JSON.stringify(body),
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) {
      throw new Error(answer.description || answer.message || `${path}: ${response.status}`);
    }
    return answer;
  }

  // --- cart drawer -------------------------------------------------------------------------

  const drawerEnabled = () => document.body.dataset.cartType === "drawer";
  let opener;

  function openDrawer(from) {
    const panel = document.getElementById("CartDrawerPanel");
    if (!panel) return false;
    opener = from || document.activeElement;
    document.body.dataset.cartDrawer = "open";
    panel.focus();
    return true;
  }

  function closeDrawer() {
    if (document.body.dataset.cartDrawer !== "open") return;
    delete document.body.dataset.cartDrawer;
    if (opener?.isConnected) opener.focus();
  }

  document.addEventListener("click", (event) => {
    const open = event.target.closest("[data-cart-drawer-open]");
    if (open && openDrawer(open)) event.preventDefault();
    if (event.target.closest("[data-cart-drawer-close]")) closeDrawer();
  });

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") closeDrawer();
    // Keep Tab inside the open drawer, as a modal dialog.
    if (event.key !== "Tab" || document.body.dataset.cartDrawer !== "open") return;
    const panel = document.getElementById("CartDrawerPanel");
    const focusable = panel?.querySelectorAll("a[href], button:not([disabled]), input");
    if (!focusable?.length) return;
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (event.shiftKey && (document.activeElement === first || document.activeElement === panel)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  });

  // --- cart lines (cart page and drawer) ---------------------------------------------------

  let pending = Promise.resolve();

  /** Sets a line's quantity; changes run one after another, in the order the buyer made them. */
  function changeLine(key, quantity) {
    pending = pending.then(async () => {
      const lists = document.querySelectorAll(".cart-lines");
      lists.forEach((list) => list.setAttribute("aria-busy", "true"));
      try {
        const cart = await postCart("cart/change.js", {
          id: key,
          quantity,
          sections: cartSectionIds(),
          sections_url: location.pathname,
        });
        applySections(cart.sections);
        announce(status()?.dataset.updated || "");
      } catch (error) {
        announce(error.message);
      } finally {
        document
          .querySelectorAll(".cart-lines")
          .forEach((list) => list.removeAttribute("aria-busy"));
      }
    });
    return pending;
  }

  const lineKeyOf = (element) => element.closest("[data-line-key]")?.dataset.lineKey;

  document.addEventListener("click", (event) => {
    const step = event.target.closest("[data-line-step]");
    const remove = event.target.closest("[data-line-remove]");
    const key = lineKeyOf(event.target);
    if (!key || (!step && !remove)) return;
    if (remove) return void changeLine(key, 0);
    const input = step.parentElement.querySelector("[data-line-quantity]");
    const next = Math.max(0, Number(input.value) + Number(step.dataset.lineStep));
    input.value = String(next);
    changeLine(key, next);
  });

  document.addEventListener("change", (event) => {
    const input = event.target.closest?.("[data-line-quantity]");
    const key = input && lineKeyOf(input);
    if (!key) return;
    const quantity = Number.parseInt(input.value, 10);
    if (Number.isInteger(quantity) && quantity >= 0) changeLine(key, quantity);
  });

  // Enter in a quantity field submits the cart form: the change event has the update already.
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (form.matches(".cart-form") && event.submitter?.name !== "checkout") event.preventDefault();
  });

  // --- product page ------------------------------------------------------------------------

  function setUpVariantPicker(picker) {
    const form = document.getElementById(picker.dataset.form);
    const variants = JSON.parse(picker.querySelector("[data-variants]").textContent);
    const section = picker.closest("[data-product-info]");
    picker.addEventListener("change", () => {
      const chosen = [...picker.querySelectorAll("fieldset")].map(
        (fieldset) => fieldset.querySelector("input:checked")?.value,
      );
      const variant = variants.find((candidate) =>
        candidate.options.every((value, index) => value === chosen[index]),
      );
      const button = form?.querySelector("[data-add-button]");
      if (button) {
        const available = Boolean(variant?.available);
        button.disabled = !available;
        button.textContent = available ? button.dataset.labelAdd : button.dataset.labelUnavailable;
      }
      if (!variant) return;
      const input = form?.querySelector("[data-variant-id]");
      if (input) input.value = variant.id;
      const price = section?.querySelector("[data-product-price]");
      if (price) price.textContent = variant.price;
      const url = new URL(location.href);
      url.searchParams.set("variant", variant.id);
      history.replaceState(history.state, "", url);
    });
  }

  function setUpQuantity(box) {
    const input = box.querySelector("input");
    box.addEventListener("click", (event) => {
      const step = event.target.closest("[data-step]");
      if (!step) return;
      const next = Math.max(
        Number(input.min) || 1,
        Number(input.value) + Number(step.dataset.step),
      );
      input.value = String(next);
      input.dispatchEvent(new Event("change", { bubbles: true }));
    });
  }

  // With the drawer, the add stays on the page; with the cart page, the form's own POST goes
  // there (Shopify redirects /cart/add to /cart), with nothing to cut short on the way.
  function setUpProductForm(form) {
    if (!drawerEnabled() || !document.getElementById("CartDrawerPanel")) return;
    const error = form.querySelector("[data-form-error]");
    const button = form.querySelector("[data-add-button]");
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (button) button.setAttribute("aria-busy", "true");
      if (error) error.hidden = true;
      const body = new FormData(form);
      const sections = cartSectionIds();
      if (sections.length) {
        body.append("sections", sections.join(","));
        body.append("sections_url", location.pathname);
      }
      try {
        const answer = await postCart("cart/add.js", body);
        applySections(answer.sections);
        openDrawer(button);
      } catch (failure) {
        if (error) {
          error.textContent = failure.message;
          error.hidden = false;
        }
      } finally {
        button?.removeAttribute("aria-busy");
      }
    });
  }

  document.querySelectorAll("[data-variant-picker]").forEach(setUpVariantPicker);
  document.querySelectorAll("[data-quantity]").forEach(setUpQuantity);
  document.querySelectorAll("form.product-form").forEach(setUpProductForm);
})();
