import { z } from "zod";
import { isMessageKey, type MessageKey } from "../i18n/translate";
import { API_VERSIONS, ENVIRONMENTS, type Environment } from "../protection/types";
import { isCalendarDay } from "./reconciliation";

/*
 * The Connection page's forms, checked on the server. Messages are i18n keys of the
 * `connection` namespace: the page translates them into the admin's language.
 */

// A key travels in an HTTP header: visible ASCII only, no spaces (as the service client checks).
const HEADER_SAFE = /^[\x21-\x7e]+$/;
const MAX_KEY_LENGTH = 256;

const secretKey = z
  .string()
  .trim()
  .max(MAX_KEY_LENGTH, { error: "connection.keys.errors.secretKeyFormat" })
  .refine((value) => value === "" || (value.length >= 8 && HEADER_SAFE.test(value)), {
    error: "connection.keys.errors.secretKeyFormat",
  })
  .transform((value) => (value === "" ? null : value));

const publishableKey = z
  .string()
  .trim()
  .max(MAX_KEY_LENGTH, { error: "connection.keys.errors.publishableKeyFormat" })
  .refine((value) => value === "" || HEADER_SAFE.test(value), {
    error: "connection.keys.errors.publishableKeyFormat",
  })
  .transform((value) => (value === "" ? null : value));

const environment = z.enum(ENVIRONMENTS, { error: "connection.errors.invalidForm" });

export const connectionFormSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("save_keys"),
      environment,
      secretKey: secretKey.default(""),
      publishableKey: publishableKey.default(""),
    }),
    z.object({ intent: z.literal("remove_key"), environment }),
    z.object({
      intent: z.literal("set_api_version"),
      apiVersion: z.enum(API_VERSIONS, { error: "connection.apiVersion.errors.invalid" }),
    }),
    z.object({
      intent: z.literal("switch_environment"),
      environment,
      confirm: z.literal("true", { error: "connection.environment.errors.confirm" }),
    }),
    z.object({
      intent: z.literal("request_backfill"),
      since: z
        .string({ error: "connection.backfill.errors.invalidDate" })
        .trim()
        .refine(isCalendarDay, { error: "connection.backfill.errors.invalidDate" }),
    }),
  ],
  { error: "connection.errors.invalidForm" },
);

export type ConnectionForm = z.infer<typeof connectionFormSchema>;
export type ConnectionIntent = ConnectionForm["intent"];

export const CONNECTION_FIELDS = [
  "secretKey",
  "publishableKey",
  "apiVersion",
  "confirm",
  "since",
  "form",
] as const;
export type ConnectionField = (typeof CONNECTION_FIELDS)[number];

/** What an action answers: a notice to show, or i18n error keys by field. */
export type ConnectionActionData =
  | { ok: true; intent: ConnectionIntent; environment: Environment | null; notice: MessageKey }
  | {
      ok: false;
      intent: ConnectionIntent | null;
      environment: Environment | null;
      errors: Partial<Record<ConnectionField, MessageKey>>;
    };

/** Parses a submitted form; invalid input comes back as the action's error answer. */
export function parseConnectionForm(
  values: Record<string, unknown>,
): { ok: true; form: ConnectionForm } | { ok: false; answer: ConnectionActionData } {
  const parsed = connectionFormSchema.safeParse(values);
  if (parsed.success) return { ok: true, form: parsed.data };
  const errors: Partial<Record<ConnectionField, MessageKey>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    const name = (CONNECTION_FIELDS as readonly unknown[]).includes(field)
      ? (field as ConnectionField)
      : "form";
    errors[name] ??=
      issue.message.startsWith("connection.") && isMessageKey(issue.message)
        ? issue.message
        : "connection.errors.invalidForm";
  }
  const intent = connectionFormSchema.options
    .map((option) => option.shape.intent.value)
    .find((value) => value === values.intent);
  const env = ENVIRONMENTS.find((value) => value === values.environment);
  return {
    ok: false,
    answer: { ok: false, intent: intent ?? null, environment: env ?? null, errors },
  };
}
