import type { Api } from "@shopify/ui-extensions/admin.order-details.block.render";

// The parts of the target's API the block reads; the entry narrows the global `shopify` to
// it, so the browser test's stub (typed by this name) cannot drift from what the block uses.
export type OrderAdminHost = Pick<Api, "data" | "i18n">;
