// Wire types of the protection service API. Field names mirror the spec's tables exactly
// (snake_case); code outside app/protection maps to and from camelCase.

export const ENVIRONMENTS = ["sandbox", "production"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export const API_VERSIONS = ["v1.1", "v2.0"] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

/** Amounts are integers in the currency's minor unit (cents); currency codes are lowercase. */
export type CurrencyCode = string;
/** ISO 8601 UTC with milliseconds, e.g. "2025-01-31T12:00:00.000Z". */
export type Timestamp = string;

export type CartLineItem = {
  id: string;
  quantity: number;
  price_amount: number;
  product_id: string;
  product_title: string;
  product_brand: string;
  custom_properties?: { product_reference?: string };
};

export type CartUpdateRequest = {
  cart_id: string;
  user_session_id: string;
  cart_currency: CurrencyCode;
  line_items: CartLineItem[];
};

export type UpdateLineItemAction = {
  type: "update_line_item";
  payload: { line_item_id: string; line_item_quantity: number };
};

/** `update_line_item` is the only action type the spec shows. */
export type CartAction = UpdateLineItemAction;

export type CartUpdateResponse = {
  cart_id: string;
  user_session_id: string;
  /** Empty or absent when there is nothing to do. */
  actions?: CartAction[];
};

/** Request and response share this shape. */
export type CartCheckoutConfirmation = {
  cart_id: string;
  user_session_id: string;
  order_id: string;
};

export type Customer = { first_name: string; last_name: string; email: string };

export type BillingAddress = {
  address_line_1: string;
  address_line_2?: string;
  city: string;
  /** Lowercase 2-letter code, e.g. "de". Left out when the order has no address. */
  country?: string;
  zip: string;
};

export type OrderPlacedPayload = {
  order_id: string;
  placed_at: Timestamp;
  order_currency: CurrencyCode;
  /** Sent by e-commerce integrations; absent in an events-only integration. */
  cart_id?: string;
  customer: Customer;
  customer_billing_address: BillingAddress;
  line_items: CartLineItem[];
};

export type FulfillmentItem = { line_item_id: string; quantity: number; fulfilled_at: Timestamp };

export type OrderFulfillmentAddedPayload = {
  order_id: string;
  fulfillment_items: FulfillmentItem[];
};

export type RefundItem = { line_item_id: string; quantity: number; refunded_at: Timestamp };

export type OrderRefundAddedPayload = {
  order_id: string;
  refund_items: RefundItem[];
};

export type CancelledLineItem = {
  line_item_id: string;
  quantity?: number;
  cancelled_at: Timestamp;
};

export type OrderLineItemsCancelledPayload = {
  order_id: string;
  cancelled_line_items: CancelledLineItem[];
};

export type OrderCancelledPayload = { order_id: string; cancelled_at: Timestamp };

export type OrderEvent =
  | { type: "order_placed"; payload: OrderPlacedPayload }
  | { type: "order_fulfillment_added"; payload: OrderFulfillmentAddedPayload }
  | { type: "order_refund_added"; payload: OrderRefundAddedPayload }
  | { type: "order_line_items_cancelled"; payload: OrderLineItemsCancelledPayload }
  | { type: "order_cancelled"; payload: OrderCancelledPayload };

export type OrderEventType = OrderEvent["type"];

export const ORDER_EVENT_TYPES = [
  "order_placed",
  "order_fulfillment_added",
  "order_refund_added",
  "order_line_items_cancelled",
  "order_cancelled",
] as const satisfies readonly OrderEventType[];

/** The checkout confirmation as the outbox carries it beside the order events (decision 033). */
export type CheckoutConfirmationMessage = {
  type: "cart_checkout";
  payload: CartCheckoutConfirmation;
};

/** Everything an outbox row carries: an order event for `/events`, or a checkout confirmation. */
export type OutboxMessage = OrderEvent | CheckoutConfirmationMessage;

export type OutboxMessageType = OutboxMessage["type"];

/** The outbox's row types, order events first: what the admin's event log can show and filter. */
export const OUTBOX_MESSAGE_TYPES = [
  ...ORDER_EVENT_TYPES,
  "cart_checkout",
] as const satisfies readonly OutboxMessageType[];

export type EventAccepted = { event_id: string };

/** What the app keeps of an accepted event: the service's ID when it gave one, and its answer. */
export type EventReceipt = { event_id: string | null; body: string };

/** Query parameter names are not in the spec; see docs/decisions/003-endpoint-paths.md. */
export type PlanLookupQuery = {
  product_id: string;
  product_title: string;
  product_brand?: string;
  product_category?: string;
  price_amount: number;
  price_currency: CurrencyCode;
  user_session_id?: string;
};

export type PlanLookupProduct = {
  id: string;
  category: string;
  title: string;
  brand: string;
  price_amount: number;
  price_currency: CurrencyCode;
};

export type Plan = {
  merchant_product_id: string;
  price_amount: number;
  price_currency: CurrencyCode;
  product_reference: string;
  /** Language code to title, e.g. { de: "...", en: "..." }. */
  title: Record<string, string>;
  insurance_details_url: string;
};

export type PlanLookupResponse = {
  product: PlanLookupProduct;
  plans: Plan[];
};

export type CheckoutType = "redirect" | "assist";

export type CheckoutQuery = { order_id: string; checkout_type: CheckoutType };

export type AvailablePlan = {
  line_item_id: string;
  product_reference: string;
  plan_price_amount: number;
  plan_price_currency: CurrencyCode;
};

export type CheckoutInformation = {
  order_id: string;
  /** Present when checkout_type is "redirect". */
  redirect_link?: string;
  /** Present when checkout_type is "assist". */
  assist_link?: string;
  /** A line item missing here has no plan available. */
  available_plans: AvailablePlan[];
};

export type ServiceErrorBody = {
  error: { error_code: string; validation_errors: unknown[] };
};
