// English strings of the admin's items page. Keys are nested objects; values may hold {name} placeholders.
export default {
  title: "Protection items",
  subtitle: "The products the protection service sells as plans",
  actions: {
    create: "Create protection product",
    copyAll: "Copy all",
  },
  table: {
    heading: "For your account manager",
    description:
      "Give these variant IDs (the service's merchant_product_id) and categories to your account manager. “Copy all” copies them as a table.",
    variantId: "Variant ID",
    title: "Title",
    price: "Price",
    category: "Category",
    strategy: "Strategy",
    actions: "Actions",
    dynamicPrice: "Dynamic",
    createdByApp: "Created by the app",
    remove: "Remove",
    removeLabel: "Remove {title} from the protection items",
    resourceSingular: "protection item",
    resourcePlural: "protection items",
  },
  strategies: {
    one_to_one: "One-to-one",
    one_to_many: "One-to-many",
    one_to_all: "One-to-all",
  },
  empty: {
    heading: "No protection items yet",
    body: "Create your protection product, or map products you already sell.",
  },
  map: {
    heading: "Map products you already sell",
    description:
      "Use products or variants you already have as protection items. Removing an item later leaves the product in Shopify.",
    strategy: "Strategy",
    strategyHelp: {
      one_to_one: "One item per plan, sold at its own price.",
      one_to_all:
        "One placeholder item for all plans. The service shows each plan's title and price, but Shopify charges the item's own price: use it only when all plans cost that price or with the service's self-service checkout. Otherwise create a one-to-many product.",
    },
    category: "Category (optional)",
    categoryHelp: "The product category you give your account manager for testing.",
    pickVariants: "Select variants",
    pickProducts: "Select products",
  },
  copy: {
    done: "Copied {count} items",
    failed: "Could not copy. Select the table and copy it by hand.",
  },
  results: {
    created: "Created the protection product with {count} items",
    publishedNote:
      "It is available on your Online Store sales channel, so customers can add its plans to their carts. It stays unlisted: it shows in no search, collection or recommendation.",
    openProduct: "Open the product in Shopify",
    mapped: "Saved {count} protection items.",
    removed: "Removed the item. The product is still in Shopify.",
    removeNotFound: "That item does not exist any more. Reload the page.",
    pickedNotFound: "Shopify no longer has these products or variants, so nothing was saved: {ids}",
    shopifyErrorTitle: "Shopify did not answer",
    shopifyError: "Nothing was saved. Check your connection and try again in a minute.",
    saveFailedTitle: "The items were not saved",
    mapSaveFailed: "Nothing was saved. Try again; if it keeps happening, contact support.",
  },
  onlineStore: {
    published: "On Online Store",
    notPublished: "Not on Online Store",
    makeAvailableTitle: "Make {product} available on the Online Store channel",
    makeAvailableBody:
      "Until then, customers cannot add its plans to their carts. Open the product and, under Publishing, add the Online Store sales channel. It stays unlisted: it shows in no search, collection or recommendation.",
    reasons: {
      not_published: "It is not on your Online Store sales channel.",
      no_online_store:
        "Your shop has no Online Store sales channel, so the app could not publish it. Add the Online Store channel first.",
      access_denied:
        "The app is not allowed to publish products yet. Reopen the app and approve its updated permissions if Shopify asks; until then, make the product available yourself.",
      user_errors: "Shopify refused to publish it: {message}",
      failed: "Shopify did not answer when the app tried to publish it.",
    },
    accessDeniedTitle: "The app cannot check the Online Store",
    accessDeniedBody:
      "It needs the permission to manage sales channel publications. Reopen the app and approve its updated permissions if Shopify asks; until then, make sure each protection product is available on the Online Store channel yourself.",
    noOnlineStoreTitle: "Your shop has no Online Store sales channel",
    noOnlineStoreBody:
      "Customers add plans to their carts on your Online Store. Add the Online Store sales channel, then make each protection product available on it.",
  },
  errors: {
    titleRequired: "Enter a title.",
    titleTooLong: "Use at most 255 characters.",
    categoryTooLong: "Use at most 255 characters for the category.",
    pricesRequired: "Enter at least one price.",
    strategy: "Choose one-to-one or one-to-all.",
    pickSomething: "Select at least one product or variant.",
    tooMany: "Select at most 250 products or variants at once.",
    invalidForm: "The form was incomplete. Reload the page and try again.",
  },
  new: {
    title: "Create protection product",
    defaultTitle: "Product protection",
    explain:
      "The app creates one unlisted product with one variant per plan price (one-to-many). The variants need no shipping, carry no tax (0% VAT) and track no inventory. The product is hidden from search, recommendations and sitemaps and is in no collection.",
    fields: {
      title: "Title",
      titleHelp: "Customers see it on the cart line, with the plan price.",
      prices: "Plan prices",
      pricesHelp:
        "In your shop's currency, separated by commas or one per line, for example 19.99, 29.99, 59.99.",
      category: "Category (optional)",
      categoryHelp: "The product category you give your account manager for testing.",
    },
    cancel: "Cancel",
    submit: "Create product",
    formErrorsTitle: "Shopify did not create the product",
    shopifyErrorTitle: "Shopify did not answer",
    shopifyError: "Nothing was created. Check your connection and try again in a minute.",
    saveFailedTitle: "The product was created, but its items were not saved",
    saveFailed:
      "Shopify created product {productId}. Map its variants with “Select products” on the Protection items page, or delete the product in Shopify and create it again.",
    priceIssues: {
      empty: "Enter at least one price.",
      not_a_price: "“{value}” is not a price.",
      too_many_decimals: "“{value}” has more decimals than {currency} has ({decimals}).",
      not_positive: "“{value}” must be more than zero.",
      duplicate: "{value} is listed twice.",
      too_many: "Enter at most {max} prices.",
    },
  },
  errorBoundary: {
    title: "The protection items could not be shown",
    body: "Reload the page. If it keeps happening, check that the app is still installed, then contact support with the time it happened.",
    newBody:
      "The product may not have been created. Go back to Protection items and check whether it is listed; if it is not, try again. If it keeps happening, contact support with the time it happened.",
  },
} as const;
