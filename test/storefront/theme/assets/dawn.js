// A small stand-in for Dawn's product-form.js, cart-drawer.js, cart.js and the variant picker:
// the same requests (FormData to /cart/add with `sections`, JSON to /cart/change with
// `sections`) and the same DOM updates from the Section Rendering API.
const root = window.Shopify.routes.root;

function sectionInnerHTML(html, selector) {
  return new DOMParser().parseFromString(html, "text/html").querySelector(selector).innerHTML;
}

class VariantSelects extends HTMLElement {
  connectedCallback() {
    this.addEventListener("change", (event) => {
      const input = event.target;
      const form = document.getElementById("product-form-main");
      const id = form.querySelector('input[name="id"]');
      id.value = input.value;
      id.dispatchEvent(new Event("change", { bubbles: true }));
      document.getElementById("price-main").textContent = input.dataset.price;
      window.history.replaceState({}, "", `${location.pathname}?variant=${input.value}`);
    });
  }
}
customElements.define("variant-selects", VariantSelects);

class ProductForm extends HTMLElement {
  connectedCallback() {
    if (this.dataset.ajax === "false") return;
    this.form = this.querySelector("form");
    this.form.addEventListener("submit", (event) => this.onSubmit(event));
  }

  onSubmit(event) {
    event.preventDefault();
    const formData = new FormData(this.form);
    formData.append("sections", "cart-drawer,cart-icon-bubble");
    formData.append("sections_url", window.location.pathname);
    fetch(`${root}cart/add`, {
      method: "POST",
      headers: { Accept: "application/javascript", "X-Requested-With": "XMLHttpRequest" },
      body: formData,
    })
      .then((response) => response.json())
      .then((response) => {
        if (response.status) throw new Error(response.description);
        document.querySelector("cart-drawer").renderContents(response);
      })
      .catch((error) => console.error(error));
  }
}
customElements.define("product-form", ProductForm);

class CartDrawer extends HTMLElement {
  connectedCallback() {
    this.addEventListener("click", (event) => {
      if (event.target.closest("[data-drawer-close]")) this.classList.remove("active");
    });
  }

  renderContents(parsedState) {
    this.classList.toggle("is-empty", false);
    document.getElementById("CartDrawer").innerHTML = sectionInnerHTML(
      parsedState.sections["cart-drawer"],
      "#CartDrawer",
    );
    document.getElementById("cart-icon-bubble").innerHTML = sectionInnerHTML(
      parsedState.sections["cart-icon-bubble"],
      ".shopify-section",
    );
    this.classList.add("active");
  }
}
customElements.define("cart-drawer", CartDrawer);

// Quantity inputs and remove buttons of the cart page (cart-items) and the drawer
// (cart-drawer-items): one /cart/change per change, then the sections it returns.
function cartSections(inDrawer) {
  if (inDrawer) {
    return [
      { id: "CartDrawer", section: "cart-drawer", selector: "#CartDrawer" },
      { id: "cart-icon-bubble", section: "cart-icon-bubble", selector: ".shopify-section" },
    ];
  }
  return [
    {
      id: "main-cart-items",
      section: document.getElementById("main-cart-items").dataset.id,
      selector: ".js-contents",
    },
    { id: "cart-icon-bubble", section: "cart-icon-bubble", selector: ".shopify-section" },
    {
      id: "main-cart-footer",
      section: document.getElementById("main-cart-footer").dataset.id,
      selector: ".js-contents",
    },
  ];
}

function updateQuantity(line, quantity, inDrawer) {
  const sections = cartSections(inDrawer);
  return fetch(`${root}cart/change`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/javascript" },
    body: JSON.stringify({
      line,
      quantity,
      sections: sections.map((section) => section.section),
      sections_url: window.location.pathname,
    }),
  })
    .then((response) => response.json())
    .then((state) => {
      for (const section of sections) {
        const element = document.getElementById(section.id);
        const target = element.querySelector(section.selector) || element;
        target.innerHTML = sectionInnerHTML(state.sections[section.section], section.selector);
      }
    })
    .catch((error) => console.error(error));
}

document.addEventListener("change", (event) => {
  const input = event.target.closest(".cart-item .quantity__input");
  if (input)
    updateQuantity(
      Number(input.dataset.index),
      Number(input.value),
      !!input.closest("cart-drawer"),
    );
});
document.addEventListener("click", (event) => {
  const button = event.target.closest(".cart-item .cart-remove-button");
  if (button) updateQuantity(Number(button.dataset.index), 0, !!button.closest("cart-drawer"));
});
