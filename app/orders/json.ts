type ReviverContext = { source?: string };
type LosslessReviver = (
  this: unknown,
  key: string,
  value: unknown,
  context?: ReviverContext,
) => unknown;

const INTEGER_LITERAL = /^-?\d+$/;

/**
 * JSON.parse, except that integers beyond Number.MAX_SAFE_INTEGER (Shopify IDs above 2^53) come
 * back as their exact decimal digits, as strings. Throws SyntaxError on invalid JSON.
 */
export function parseWebhookJson(raw: string): unknown {
  const reviver: LosslessReviver = (_key, value, context) => {
    if (context === undefined) {
      throw new Error(
        "parseWebhookJson: lossless JSON parsing needs Node 22 or later (JSON.parse reviver context.source)",
      );
    }
    if (
      typeof value === "number" &&
      !Number.isSafeInteger(value) &&
      context.source !== undefined &&
      INTEGER_LITERAL.test(context.source)
    ) {
      return context.source;
    }
    return value;
  };
  return JSON.parse(raw, reviver);
}
