// English strings of the admin's settings page. Keys are nested objects; values may hold {name} placeholders.
export default {
  title: "Settings",
  save: "Save settings",
  saved: "Settings saved.",
  orders: {
    title: "Order events",
    reportOrdersWithoutPlan: "Report orders without a protection plan",
    reportOrdersWithoutPlanHelp:
      "On: every order is reported, so the service can offer protection after the purchase (self-service checkout links). Off: only orders with a plan are reported. Applies to orders placed from now on.",
    selfServiceLink: "Offer protection after the purchase (self-service link)",
    selfServiceLinkHelp:
      'On: the Thank-you and Order status pages show the service\'s link to buy protection for products of the order that have none. Needs "Report orders without a protection plan" on: the service only offers what it was told about. Off: the buyer sees no link; staff still see the guided checkout link on the order page.',
    autoRefundPlans: "Refund and cancel a plan with its product",
    autoRefundPlansHelp:
      "When you refund a protected product, the app refunds the same units of its plan in Shopify, as the service requires; its refund's note says so. Off: the app records the refund it would have made, flags the order in the event log and leaves it to you, with a button to make the refund. When you cancel an order without refunding its plans, the app never refunds them on its own: it flags the order, with a button to refund them.",
    autoEditPlans: "Reduce plans when an order edit reduces their product",
    autoEditPlansHelp:
      "When an order edit removes or reduces a protected product, the app reduces its plan line to match in Shopify, and refunds the difference when the edit leaves money owed. Off: the app records the change it would have made, flags the order in the event log and leaves it to you, with a button to make the change.",
    autoFulfilPlans: "Fulfil a plan with its product",
    autoFulfilPlansHelp:
      "When you fulfil a protected product, the app fulfils the same units of its plan in Shopify, without notifying the customer. Plans stocked by a fulfilment service are left to it. Needs the fulfilment permission, which Shopify asks you for when you turn this on.",
  },
  fulfilmentScope: {
    title: "Grant the fulfilment permission",
    body: "Fulfilling plans with their products needs permission to fulfil your orders (write_merchant_managed_fulfillment_orders). Until you grant it, the app records the fulfilments it would make and leaves them to you.",
    grant: "Grant the fulfilment permission",
    granted: "The fulfilment permission is granted.",
  },
  offer: {
    title: "Protection offer on product pages",
    help: "How the Protection offer block shows the plans. Changes reach the storefront within a minute.",
    heading: "Heading",
    headingHelp:
      "Shown above the plans. Leave it empty to use the block's own heading. At most {max} characters.",
    showInsuranceLink: "Show the link to the insurance details",
    showInsuranceLinkHelp: "Each plan links to the insurer's terms on the service's site.",
    layout: "Layout",
    layoutList: "List: one row per plan, with its title and price",
    layoutCompact: "Compact: the plans in one line, for narrow product columns",
    errors: {
      headingTooLong: "The heading is too long.",
      headingInvalid: "The heading cannot contain line breaks or control characters.",
      layout: "Choose a layout.",
    },
  },
  errors: {
    invalidForm: "The form could not be read. Reload the page and try again.",
  },
} as const;
