// A theme without a product form: it adds to the cart with fetch and a JSON body, refreshes its
// mini cart through the Section Rendering API, and changes quantities with XMLHttpRequest.
const root = window.Shopify.routes.root;

function refreshMiniCart() {
  return fetch(`${location.pathname}?sections=mini-cart`)
    .then((response) => response.json())
    .then((sections) => {
      const fresh = new DOMParser().parseFromString(sections["mini-cart"], "text/html");
      document.getElementById("shopify-section-mini-cart").innerHTML =
        fresh.querySelector(".shopify-section").innerHTML;
    });
}

const select = document.querySelector("[data-product-variants]");
if (select) {
  select.addEventListener("change", () => {
    document.getElementById("price-main").textContent = select.selectedOptions[0].dataset.price;
    history.replaceState({}, "", `${location.pathname}?variant=${select.value}`);
  });
  document.getElementById("AddToCart").addEventListener("click", () => {
    const quantity = Number(document.getElementById("Quantity-main").value);
    fetch(`${root}cart/add.js`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ items: [{ id: Number(select.value), quantity }] }),
    })
      .then((response) => {
        if (!response.ok) throw new Error(`cart/add.js ${response.status}`);
        return refreshMiniCart();
      })
      .catch((error) => console.error(error));
  });
}

document.addEventListener("click", (event) => {
  const button = event.target.closest(".mini-cart__line [data-step]");
  if (!button) return;
  const line = button.closest(".mini-cart__line");
  const quantity =
    Number(line.querySelector("[data-quantity]").textContent) + Number(button.dataset.step);
  const request = new XMLHttpRequest();
  request.open("POST", `${root}cart/change.js`);
  request.setRequestHeader("Content-Type", "application/json");
  request.onload = () => refreshMiniCart();
  request.send(JSON.stringify({ id: line.dataset.key, quantity }));
});
