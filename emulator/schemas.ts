import type { FuncKeywordDefinition, Format, Plugin, SchemaValidateFunction } from "ajv";

/*
 * JSON Schemas for every request body and query string the emulator accepts, written from the
 * field tables of the protection service spec. They are an independent oracle for the app's
 * own client, so nothing here may be imported from app/.
 *
 * Requiredness is the emulator's choice (the spec shows none); see
 * docs/emulator.md (decision 004) for the list and the reasons.
 */

// ---------------------------------------------------------------------------------------------
// Formats and custom keywords

const UTC_TIMESTAMP_WITH_MILLISECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function isUtcTimestampWithMilliseconds(value: string): boolean {
  if (!UTC_TIMESTAMP_WITH_MILLISECONDS.test(value)) return false;
  // A round trip through Date rejects impossible dates such as 2025-02-30 or hour 24.
  const parsed = new Date(value);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString() === value;
}

export const emulatorFormats: Record<string, Format> = {
  "utc-timestamp-millis": { type: "string", validate: isUtcTimestampWithMilliseconds },
  "currency-code": /^[a-z]{3}$/,
  "country-code": /^[a-z]{2}$/,
  "uuid-form": /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
  // Query string values arrive as text; the emulator does not coerce types (see server.ts).
  "decimal-cents": /^(0|[1-9][0-9]*)$/,
};

/** Readable messages for format failures, used in `validation_errors`. */
export const formatMessages: Record<string, string> = {
  "utc-timestamp-millis":
    "must be an ISO 8601 UTC timestamp with milliseconds (YYYY-MM-DDTHH:mm:ss.sssZ) naming a real date",
  "currency-code": "must be a lowercase three-letter currency code such as eur",
  "country-code": "must be a lowercase two-letter country code such as de",
  "uuid-form": "must be a UUID (8-4-4-4-12 hexadecimal digits)",
  "decimal-cents": "must be a non-negative integer amount in cents, written in decimal digits",
};

const validateExactlyOneProperty: SchemaValidateFunction = (
  propertyNames: string[],
  data: Record<string, unknown>,
) => {
  const present = propertyNames.filter((name) => Object.hasOwn(data, name));
  if (present.length === 1) return true;
  const choices = propertyNames.join(", ");
  validateExactlyOneProperty.errors = [
    {
      keyword: "requireExactlyOneOf",
      params: { propertyNames, present },
      message:
        present.length === 0
          ? `must have one of ${choices}`
          : `must have only one of ${choices}, not ${present.join(" and ")}`,
    },
  ];
  return false;
};

/** `requireExactlyOneOf: ["a", "b"]`: the object holds exactly one of the named properties. */
const requireExactlyOneOfKeyword: FuncKeywordDefinition = {
  keyword: "requireExactlyOneOf",
  type: "object",
  schemaType: "array",
  errors: true,
  validate: validateExactlyOneProperty,
};

const validateRequiredGroups: SchemaValidateFunction = (
  groups: string[][],
  data: Record<string, unknown>,
) => {
  if (groups.some((group) => group.every((name) => Object.hasOwn(data, name)))) return true;
  const described = groups.map((group) => group.join(" and ")).join(", or ");
  validateRequiredGroups.errors = [
    { keyword: "requireOneGroupOf", params: { groups }, message: `must have ${described}` },
  ];
  return false;
};

/** `requireOneGroupOf: [["a"], ["b", "c"]]`: the object holds every property of at least one group. */
const requireOneGroupOfKeyword: FuncKeywordDefinition = {
  keyword: "requireOneGroupOf",
  type: "object",
  schemaType: "array",
  errors: true,
  validate: validateRequiredGroups,
};

/** Ajv plugin for fastify's `ajv.plugins` option. */
export const addEmulatorKeywords: Plugin<unknown> = (ajv) => {
  ajv.addKeyword(requireExactlyOneOfKeyword);
  ajv.addKeyword(requireOneGroupOfKeyword);
  return ajv;
};

// ---------------------------------------------------------------------------------------------
// Building blocks

const identifier = { type: "string", minLength: 1 } as const;
const text = { type: "string" } as const;
const cents = { type: "integer", minimum: 0 } as const;
const lineQuantity = { type: "integer", minimum: 0 } as const;
const entryQuantity = { type: "integer", minimum: 1 } as const;
const timestamp = { type: "string", format: "utc-timestamp-millis" } as const;
const currencyCode = { type: "string", format: "currency-code" } as const;
const countryCode = { type: "string", format: "country-code" } as const;
const userSessionId = { type: "string", format: "uuid-form" } as const;

export const EVENT_TYPES = [
  "order_placed",
  "order_fulfillment_added",
  "order_refund_added",
  "order_line_items_cancelled",
  "order_cancelled",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

// ---------------------------------------------------------------------------------------------
// Wire types (snake_case, as on the wire)

export interface LineItem {
  id: string;
  quantity: number;
  price_amount: number;
  product_id: string;
  product_title?: string;
  product_brand?: string;
  custom_properties?: { product_reference?: string };
}

export interface CartUpdateRequest {
  cart_id: string;
  user_session_id: string;
  cart_currency?: string;
  line_items: LineItem[];
}

export interface UpdateLineItemAction {
  type: "update_line_item";
  payload: { line_item_id: string; line_item_quantity: number };
}

export interface CheckoutConfirmation {
  cart_id: string;
  user_session_id: string;
  order_id: string;
}

export interface OrderPlacedPayload {
  order_id: string;
  placed_at: string;
  order_currency: string;
  cart_id?: string;
  customer?: { first_name?: string; last_name?: string; email?: string };
  customer_billing_address?: {
    address_line_1?: string;
    address_line_2?: string;
    city?: string;
    country?: string;
    zip?: string;
  };
  line_items: LineItem[];
}

export interface FulfillmentEntry {
  line_item_id: string;
  quantity: number;
  fulfilled_at: string;
}

export interface RefundEntry {
  line_item_id: string;
  quantity: number;
  refunded_at: string;
}

/** The spec's main form carries `cancelled_at`; one of its samples carries `quantity` and `refunded_at`. */
export interface CancelledLineItemEntry {
  line_item_id: string;
  cancelled_at?: string;
  quantity?: number;
  refunded_at?: string;
}

/** Exactly one of the two list names is present (the schema's `requireExactlyOneOf`). */
export interface FulfillmentPayload {
  order_id: string;
  fulfillment_items?: FulfillmentEntry[];
  fulfillment_line_items?: FulfillmentEntry[];
}

/** Exactly one of the two list names is present (the schema's `requireExactlyOneOf`). */
export interface RefundPayload {
  order_id: string;
  refund_items?: RefundEntry[];
  refund_line_items?: RefundEntry[];
}

export interface LineItemsCancelledPayload {
  order_id: string;
  cancelled_line_items: CancelledLineItemEntry[];
}

export interface OrderCancelledPayload {
  order_id: string;
  cancelled_at: string;
}

export type OrderEvent =
  | { type: "order_placed"; payload: OrderPlacedPayload }
  | { type: "order_fulfillment_added"; payload: FulfillmentPayload }
  | { type: "order_refund_added"; payload: RefundPayload }
  | { type: "order_line_items_cancelled"; payload: LineItemsCancelledPayload }
  | { type: "order_cancelled"; payload: OrderCancelledPayload };

export interface PlansQuery {
  product_id: string;
  product_title?: string;
  product_brand?: string;
  product_category?: string;
  price_amount: string;
  price_currency: string;
  user_session_id?: string;
}

export type CheckoutType = "redirect" | "assist";

export interface CheckoutsQuery {
  order_id: string;
  checkout_type: CheckoutType;
}

// ---------------------------------------------------------------------------------------------
// Request schemas

export const lineItemSchema = {
  type: "object",
  additionalProperties: false,
  required: ["id", "quantity", "price_amount", "product_id"],
  properties: {
    id: identifier,
    quantity: lineQuantity,
    price_amount: cents,
    product_id: identifier,
    product_title: text,
    product_brand: text,
    custom_properties: {
      type: "object",
      additionalProperties: false,
      properties: { product_reference: identifier },
    },
  },
} as const;

export const cartUpdateRequestSchema = {
  type: "object",
  additionalProperties: false,
  required: ["cart_id", "user_session_id", "line_items"],
  properties: {
    cart_id: identifier,
    user_session_id: userSessionId,
    cart_currency: currencyCode,
    line_items: { type: "array", items: lineItemSchema },
  },
} as const;

export const checkoutConfirmationSchema = {
  type: "object",
  additionalProperties: false,
  required: ["cart_id", "user_session_id", "order_id"],
  properties: {
    cart_id: identifier,
    user_session_id: userSessionId,
    order_id: identifier,
  },
} as const;

const orderPlacedPayloadSchema = {
  type: "object",
  additionalProperties: false,
  required: ["order_id", "placed_at", "order_currency", "line_items"],
  properties: {
    order_id: identifier,
    placed_at: timestamp,
    order_currency: currencyCode,
    cart_id: identifier,
    customer: {
      type: "object",
      additionalProperties: false,
      properties: { first_name: text, last_name: text, email: text },
    },
    customer_billing_address: {
      type: "object",
      additionalProperties: false,
      properties: {
        address_line_1: text,
        address_line_2: text,
        city: text,
        country: countryCode,
        zip: text,
      },
    },
    line_items: { type: "array", minItems: 1, items: lineItemSchema },
  },
} as const;

function entryListSchema(timestampField: "fulfilled_at" | "refunded_at") {
  return {
    type: "array",
    minItems: 1,
    items: {
      type: "object",
      additionalProperties: false,
      required: ["line_item_id", "quantity", timestampField],
      properties: {
        line_item_id: identifier,
        quantity: entryQuantity,
        [timestampField]: timestamp,
      },
    },
  } as const;
}

const fulfillmentPayloadSchema = {
  type: "object",
  additionalProperties: false,
  required: ["order_id"],
  requireExactlyOneOf: ["fulfillment_items", "fulfillment_line_items"],
  properties: {
    order_id: identifier,
    fulfillment_items: entryListSchema("fulfilled_at"),
    fulfillment_line_items: entryListSchema("fulfilled_at"),
  },
} as const;

const refundPayloadSchema = {
  type: "object",
  additionalProperties: false,
  required: ["order_id"],
  requireExactlyOneOf: ["refund_items", "refund_line_items"],
  properties: {
    order_id: identifier,
    refund_items: entryListSchema("refunded_at"),
    refund_line_items: entryListSchema("refunded_at"),
  },
} as const;

const lineItemsCancelledPayloadSchema = {
  type: "object",
  additionalProperties: false,
  required: ["order_id", "cancelled_line_items"],
  properties: {
    order_id: identifier,
    cancelled_line_items: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["line_item_id"],
        requireOneGroupOf: [["cancelled_at"], ["quantity", "refunded_at"]],
        properties: {
          line_item_id: identifier,
          cancelled_at: timestamp,
          quantity: entryQuantity,
          refunded_at: timestamp,
        },
      },
    },
  },
} as const;

const orderCancelledPayloadSchema = {
  type: "object",
  additionalProperties: false,
  required: ["order_id", "cancelled_at"],
  properties: { order_id: identifier, cancelled_at: timestamp },
} as const;

function envelopeSchema(type: EventType, payloadSchema: object) {
  return {
    type: "object",
    additionalProperties: false,
    required: ["type", "payload"],
    properties: { type: { const: type }, payload: payloadSchema },
  } as const;
}

// The discriminator makes Ajv validate only the branch named by `type`, so errors stay about that branch.
export const eventEnvelopeSchema = {
  type: "object",
  required: ["type", "payload"],
  discriminator: { propertyName: "type" },
  oneOf: [
    envelopeSchema("order_placed", orderPlacedPayloadSchema),
    envelopeSchema("order_fulfillment_added", fulfillmentPayloadSchema),
    envelopeSchema("order_refund_added", refundPayloadSchema),
    envelopeSchema("order_line_items_cancelled", lineItemsCancelledPayloadSchema),
    envelopeSchema("order_cancelled", orderCancelledPayloadSchema),
  ],
} as const;

/** `POST /orders` takes an event envelope (it has `type`) or a checkout confirmation. */
export const ordersPathBodySchema = {
  if: { type: "object", required: ["type"] },
  then: eventEnvelopeSchema,
  else: checkoutConfirmationSchema,
} as const;

export const plansQuerySchema = {
  type: "object",
  additionalProperties: false,
  required: ["product_id", "price_amount", "price_currency"],
  properties: {
    product_id: identifier,
    product_title: text,
    product_brand: text,
    product_category: text,
    price_amount: { type: "string", format: "decimal-cents" },
    price_currency: currencyCode,
    user_session_id: userSessionId,
  },
} as const;

export const checkoutsQuerySchema = {
  type: "object",
  additionalProperties: false,
  required: ["order_id", "checkout_type"],
  properties: {
    order_id: identifier,
    checkout_type: { type: "string", enum: ["redirect", "assist"] },
  },
} as const;

// ---------------------------------------------------------------------------------------------
// Schemas of the emulator's own control endpoints

export interface FaultRequest {
  /** How many matching requests the rule applies to; with duration_ms, whichever ends first. */
  count?: number;
  /** How long (from now) the rule applies to every matching request. */
  duration_ms?: number;
  /** 400–599; 200–399 only with a scripted body or raw_body. */
  status?: number;
  delay_ms?: number;
  /** Answer with this JSON object instead of the real answer (status 200 unless `status`). */
  body?: Record<string, unknown>;
  /** Answer with this text as is ("" for an empty body), status 200 unless `status`. */
  raw_body?: string;
  /**
   * "commit": process the request (an event is stored) and only then apply the fault to the
   * answer: wait delay_ms (a client time-out after the commit), then answer status/body/raw_body
   * if given, else the real answer.
   */
  after?: "commit";
  match?: { method?: string; path?: string };
}

const faultRequestFields = {
  count: { type: "integer", minimum: 1 },
  duration_ms: { type: "integer", minimum: 1, maximum: 3_600_000 },
  status: { type: "integer", minimum: 200, maximum: 599 },
  delay_ms: { type: "integer", minimum: 0, maximum: 120_000 },
  body: { type: "object" },
  raw_body: { type: "string", maxLength: 100_000 },
  after: { type: "string", enum: ["commit"] },
  match: {
    type: "object",
    additionalProperties: false,
    properties: {
      method: { type: "string", minLength: 1 },
      path: { type: "string", pattern: "^/" },
    },
  },
} as const;

export const faultRequestSchema = {
  type: "object",
  additionalProperties: false,
  properties: Object.fromEntries(Object.keys(faultRequestFields).map((name) => [name, {}])),
  // allOf runs in order, so the field rules report before the rule across fields.
  allOf: [
    { properties: faultRequestFields },
    {
      // A success status is a misbehaving service only when it comes with a scripted answer.
      if: { not: { anyOf: [{ required: ["body"] }, { required: ["raw_body"] }] } },
      then: { properties: { status: { type: "integer", minimum: 400 } } },
    },
  ],
} as const;

export type EnvironmentName = "production" | "sandbox";

export const stateQuerySchema = {
  type: "object",
  additionalProperties: false,
  required: ["environment"],
  properties: { environment: { type: "string", enum: ["production", "sandbox"] } },
} as const;
