import { z } from "zod";
import { currencyExponent, toMinorUnits } from "../../app/lib/money";

/*
 * The control API's request bodies, checked before the store acts. A bad body answers 400 with
 * one problem per field (`line_items[0].price must be a decimal string such as "19.99"`). Prices
 * come as Shopify writes them, decimal strings, and become minor units of the shop's currency.
 */

export interface Problem {
  field: string;
  message: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; problems: Problem[] };

function fieldPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else text += text === "" ? String(segment) : `.${String(segment)}`;
  }
  return text === "" ? "body" : text;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const segment of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}

function describeIssue(issue: z.core.$ZodIssue, input: unknown): Problem[] {
  const field = fieldPath(issue.path);
  // Our own messages start in lower case; zod's defaults are reworded per code.
  if (/^[a-z]/.test(issue.message)) return [{ field, message: issue.message }];
  switch (issue.code) {
    case "invalid_type":
      return [
        {
          field,
          message:
            valueAt(input, issue.path) === undefined
              ? "is required"
              : `must be ${issue.expected === "array" || issue.expected === "object" ? "an" : "a"} ${issue.expected}`,
        },
      ];
    case "unrecognized_keys":
      return issue.keys.map((key) => ({
        field: field === "body" ? key : `${field}.${key}`,
        message: "is not a known field",
      }));
    case "too_small":
      return [
        {
          field,
          message:
            issue.origin === "array"
              ? `must have at least ${String(issue.minimum)} entr${issue.minimum === 1 ? "y" : "ies"}`
              : issue.origin === "string"
                ? "must not be empty"
                : `must be at least ${String(issue.minimum)}`,
        },
      ];
    case "too_big":
      return [{ field, message: `must be at most ${String(issue.maximum)}` }];
    case "invalid_value":
      return [{ field, message: `must be one of ${issue.values.map(String).join(", ")}` }];
    default:
      return [{ field, message: issue.message }];
  }
}

export function parseBody<Schema extends z.ZodType>(
  schema: Schema,
  body: unknown,
): Parsed<z.infer<Schema>> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    problems: result.error.issues.flatMap((issue) => describeIssue(issue, body ?? {})),
  };
}

const ID_RULE =
  'must be a numeric ID as a string, such as "9007199254740993", or a gid://shopify/… ID';

/** A Shopify ID as digits or a GID; a JSON number would have lost digits past 2^53. */
export const idInput = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : ID_RULE) })
  .regex(/^(\d+|gid:\/\/shopify\/[A-Za-z]+\/\d+)$/, ID_RULE)
  .transform((value) => value.replace(/^gid:\/\/shopify\/[A-Za-z]+\//, ""));

/** The ID in a route (`/orders/:id`): digits or a GID, as digits; null when it is neither. */
export function idFromPath(value: string): string | null {
  const decoded = decodeURIComponent(value);
  const match = /^(?:gid:\/\/shopify\/[A-Za-z]+\/)?(\d+)$/.exec(decoded);
  return match?.[1] ?? null;
}

const DECIMAL_RULE = 'must be a decimal string such as "19.99"';
const decimalInput = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : DECIMAL_RULE) })
  .regex(/^\d+(\.\d+)?$/, DECIMAL_RULE);

const currencyInput = z
  .string()
  .regex(/^[A-Z]{3}$/, "must be a three-letter ISO 4217 code such as EUR");

const nameValueList = z.array(z.object({ name: z.string(), value: z.string() }).strict());

/** A decimal amount as minor units of the currency, or why it does not fit the currency. */
export function minorUnitsOf(
  amount: string,
  currency: string,
  field: string,
): { ok: true; value: number } | { ok: false; problem: Problem } {
  const exponent = currencyExponent(currency);
  const fraction = amount.split(".")[1] ?? "";
  if (fraction.length > exponent)
    return {
      ok: false,
      problem: {
        field,
        message:
          exponent === 0
            ? `must be a whole amount in ${currency}, which has no minor unit`
            : `must have at most ${exponent} decimals in ${currency}`,
      },
    };
  try {
    return { ok: true, value: toMinorUnits(amount, currency) };
  } catch (error) {
    return { ok: false, problem: { field, message: (error as Error).message } };
  }
}

export const createShopBody = z
  .object({
    shop: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/,
        "must be a myshopify domain such as demo.myshopify.com",
      ),
    app_url: z
      .string()
      .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
        message: "must be an http:// or https:// URL",
      }),
    api_key: z.string().min(1),
    api_secret: z.string().min(1),
    currency: currencyInput.optional(),
    plan: z.enum(["standard", "advanced", "plus"]).optional(),
  })
  .strict();

/** A product as the merchant adds it in the admin; published to the Online Store unless told. */
export const createProductBody = z
  .object({
    title: z.string().trim().min(1, "is required"),
    status: z.enum(["ACTIVE", "ARCHIVED", "DRAFT", "UNLISTED"]).optional(),
    product_type: z.string().optional(),
    vendor: z.string().optional(),
    published: z.boolean().optional(),
    variants: z
      .array(
        z
          .object({
            title: z.string().trim().min(1, "is required"),
            price: decimalInput,
            sku: z.string().optional(),
            requires_shipping: z.boolean().optional(),
            taxable: z.boolean().optional(),
          })
          .strict(),
      )
      .min(1, "must list at least one variant")
      .max(100, "may list at most 100 variants"),
  })
  .strict();

export const createOrderBody = z
  .object({
    line_items: z
      .array(
        z
          .object({
            variant_id: idInput.optional(),
            title: z.string().min(1).optional(),
            price: decimalInput.optional(),
            quantity: z
              .number({
                error: (issue) =>
                  issue.input === undefined ? "is required" : "must be a whole number",
              })
              .int("must be a whole number")
              .min(1, "must be at least 1"),
            properties: nameValueList.optional(),
            requires_shipping: z.boolean().optional(),
            fulfillment_service: z.string().trim().min(1).optional(),
          })
          .strict()
          .superRefine((line, context) => {
            if (line.variant_id === undefined && line.title === undefined)
              context.addIssue({
                code: "custom",
                path: ["variant_id"],
                message: "or title is required",
              });
            if (line.variant_id === undefined && line.price === undefined)
              context.addIssue({
                code: "custom",
                path: ["price"],
                message: "is required for a custom line item (one without variant_id)",
              });
          }),
      )
      .min(1),
    currency: currencyInput.optional(),
    customer: z
      .object({
        email: z.string().optional(),
        first_name: z.string().optional(),
        last_name: z.string().optional(),
        phone: z.string().nullable().optional(),
      })
      .strict()
      .optional(),
    note_attributes: nameValueList.optional(),
    email: z.string().optional(),
    cart_token: z.string().nullable().optional(),
    source_name: z.string().optional(),
  })
  .strict();

const seedLineInput = z
  .object({
    variant_id: idInput.optional(),
    title: z.string().trim().min(1).optional(),
    price: decimalInput.optional(),
    requires_shipping: z.boolean().optional(),
  })
  .strict()
  .refine((line) => line.variant_id !== undefined || line.title !== undefined, {
    message: "needs variant_id or title",
  });

export type SeedLineBody = z.infer<typeof seedLineInput>;

const shareInput = z
  .number({ error: "must be a number from 0 to 1" })
  .min(0, "must be a number from 0 to 1")
  .max(1, "must be a number from 0 to 1");

/** Many orders at once for a benchmark (StoreState.seedOrders); no webhooks. */
export const seedOrdersBody = z
  .object({
    count: z
      .number({
        error: (issue) => (issue.input === undefined ? "is required" : "must be a whole number"),
      })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(100_000, "must be at most 100000"),
    line_items: z.array(seedLineInput).min(1).optional(),
    plan: seedLineInput.optional(),
    shares: z
      .object({
        protected: shareInput.optional(),
        edited: shareInput.optional(),
        fulfilled: shareInput.optional(),
        refunded: shareInput.optional(),
      })
      .strict()
      .optional(),
    created_from: z.iso.datetime({ offset: true, error: "must be an ISO 8601 time" }).optional(),
    created_to: z.iso.datetime({ offset: true, error: "must be an ISO 8601 time" }).optional(),
    seed: z.number().int("must be a whole number").optional(),
  })
  .strict();

const quantityInput = z
  .number({
    error: (issue) => (issue.input === undefined ? "is required" : "must be a whole number"),
  })
  .int("must be a whole number");

export const fulfillmentBody = z
  .object({
    line_items: z
      .array(
        z.object({ id: idInput, quantity: quantityInput.min(1, "must be at least 1") }).strict(),
      )
      .min(1),
    tracking_info: z
      .object({
        company: z.string().optional(),
        number: z.string().optional(),
        url: z.string().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** Shopify's shipment statuses (Fulfillment.shipment_status). */
const SHIPMENT_STATUSES = [
  "label_printed",
  "label_purchased",
  "attempted_delivery",
  "ready_for_pickup",
  "confirmed",
  "in_transit",
  "out_for_delivery",
  "delivered",
  "failure",
] as const;

export const fulfillmentUpdateBody = z
  .object({
    tracking_info: z
      .object({
        company: z.string().optional(),
        number: z.string().optional(),
        url: z.string().optional(),
      })
      .strict()
      .optional(),
    shipment_status: z.enum(SHIPMENT_STATUSES).optional(),
  })
  .strict()
  .refine((body) => body.tracking_info !== undefined || body.shipment_status !== undefined, {
    message: "needs tracking_info or shipment_status",
  });

export const refundBody = z
  .object({
    refund_line_items: z.array(
      z
        .object({
          line_item_id: idInput,
          quantity: quantityInput.min(1, "must be at least 1"),
          restock_type: z.enum(["no_restock", "cancel", "return", "legacy_restock"]).optional(),
        })
        .strict(),
    ),
    note: z.string().nullable().optional(),
    amount: decimalInput.optional(),
  })
  .strict()
  .superRefine((refund, context) => {
    if (refund.refund_line_items.length === 0 && refund.amount === undefined)
      context.addIssue({
        code: "custom",
        path: ["refund_line_items"],
        message: "must have at least 1 entry unless amount is given",
      });
  });

export const cancelBody = z
  .object({
    reason: z.enum(["customer", "declined", "fraud", "inventory", "other", "staff"]).optional(),
    refund: z.boolean().optional(),
    restock: z.boolean().optional(),
  })
  .strict();

export const editBody = z
  .object({
    set_quantities: z
      .array(
        z
          .object({ line_item_id: idInput, quantity: quantityInput.min(0, "must be at least 0") })
          .strict(),
      )
      .min(1),
    notify_customer: z.boolean().optional(),
    staff_note: z.string().optional(),
  })
  .strict();

/** An action that takes no fields (a compliance request): `{}` or no body at all. */
export const emptyBody = z.object({}).strict();

export const scopesBody = z
  .object({
    scopes: z.array(
      z
        .string({ error: "must be an access scope such as read_orders" })
        .regex(/^[a-z][a-z0-9_]*$/, "must be an access scope such as read_orders"),
    ),
  })
  .strict();

export const dropBody = z
  .object({
    count: z
      .number({
        error: (issue) => (issue.input === undefined ? "is required" : "must be a whole number"),
      })
      .int("must be a whole number")
      .min(1, "must be at least 1"),
    topic: z.string().min(1).optional(),
  })
  .strict();

export const throttleBody = z
  .object({
    available: z.literal(0, { error: "must be 0: the store can only empty the bucket" }),
  })
  .strict();

/** The shop's next refresh grants wait `delay_ms`, then answer `status` (or normally without one). */
export const tokenEndpointFaultBody = z
  .object({
    status: z
      .union([z.literal(429), z.literal(500), z.literal(502), z.literal(503)], {
        error: "must be 429, 500, 502 or 503",
      })
      .optional(),
    delay_ms: z
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(0, "must be at least 0")
      .max(60_000, "must be at most 60000")
      .optional(),
    count: z
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(0, "must be at least 0")
      .optional(),
  })
  .strict();

export const idleQuery = z
  .object({
    timeout_ms: z
      .string()
      .regex(/^\d+$/, "must be a whole number of milliseconds")
      .transform(Number)
      .refine((value) => value <= 600_000, "must be at most 600000")
      .optional(),
  })
  .strict();

/** The shop's next bulk operation fails, after writing `after_objects` objects. */
export const bulkFailureBody = z
  .object({
    error_code: z.enum(["INTERNAL_SERVER_ERROR", "TIMEOUT", "ACCESS_DENIED"]).optional(),
    after_objects: z
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(0, "must be at least 0")
      .optional(),
  })
  .strict();

/** Each page of the shop's bulk runs waits this long first; 0 ends the wait. */
export const bulkPageDelayBody = z
  .object({
    page_delay_ms: z
      .number({
        error: (issue) => (issue.input === undefined ? "is required" : "must be a whole number"),
      })
      .int("must be a whole number")
      .min(0, "must be at least 0")
      .max(600_000, "must be at most 600000"),
  })
  .strict();

export const bulkFileQuery = z.object({ signature: z.string().min(1) }).strict();
