// Shapes of the service's answers. A 2xx body that does not match is treated as an
// invalid (retryable) response rather than passed on half-checked.
import { z } from "zod";
import type {
  CartCheckoutConfirmation,
  CartUpdateResponse,
  CheckoutInformation,
  EventAccepted,
  PlanLookupResponse,
} from "./types";

const cents = z.number().int();

export const cartUpdateResponseSchema: z.ZodType<CartUpdateResponse> = z.object({
  cart_id: z.string(),
  user_session_id: z.string(),
  actions: z
    .array(
      z.object({
        type: z.literal("update_line_item"),
        payload: z.object({ line_item_id: z.string(), line_item_quantity: z.number().int() }),
      }),
    )
    .optional(),
});

export const cartCheckoutConfirmationSchema: z.ZodType<CartCheckoutConfirmation> = z.object({
  cart_id: z.string(),
  user_session_id: z.string(),
  order_id: z.string(),
});

export const eventAcceptedSchema: z.ZodType<EventAccepted> = z.object({
  event_id: z.string().min(1),
});

export const planLookupResponseSchema: z.ZodType<PlanLookupResponse> = z.object({
  product: z.object({
    id: z.string(),
    category: z.string(),
    title: z.string(),
    brand: z.string(),
    price_amount: cents,
    price_currency: z.string(),
  }),
  plans: z.array(
    z.object({
      merchant_product_id: z.string(),
      price_amount: cents,
      price_currency: z.string(),
      product_reference: z.string(),
      title: z.record(z.string(), z.string()),
      insurance_details_url: z.string(),
    }),
  ),
});

export const checkoutInformationSchema: z.ZodType<CheckoutInformation> = z.object({
  order_id: z.string(),
  redirect_link: z.string().optional(),
  assist_link: z.string().optional(),
  available_plans: z.array(
    z.object({
      line_item_id: z.string(),
      product_reference: z.string(),
      plan_price_amount: cents,
      plan_price_currency: z.string(),
    }),
  ),
});

/** Lenient on purpose: error bodies are read for their code, never rejected. */
export const serviceErrorBodySchema = z.object({
  error: z.object({
    error_code: z.string().optional(),
    validation_errors: z.array(z.unknown()).optional(),
  }),
});
