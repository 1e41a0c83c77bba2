export { idString } from "./ids";
export { parseWebhookJson } from "./json";
export { mapOrderWebhook } from "./map-webhook";
export { currencyExponent, toMinorUnits } from "./money";
export { PROTECTED_PRODUCT_REF_PROPERTY } from "./order-placed";
export { refundCancellationKey } from "./refunds";
export { toServiceTimestamp } from "./timestamps";
export { ORDER_TOPICS, isOrderTopic } from "./types";
export type { DerivedEvent, MappingOptions, MappingResult, OrderTopic } from "./types";
