/**
 * One JSON token that matters here: a whole string (skipped, so digits inside one are never
 * touched), or an integer literal of 16 digits or more in a value position. The look-behind and
 * look-ahead keep out the digits of a decimal fraction or an exponent, and a key (followed by a
 * colon) so that invalid JSON stays invalid.
 */
const STRING_OR_LONG_INTEGER = /"(?:[^"\\]|\\.)*"|(?<![\w.+-])-?\d{16,}(?![\w.]|\s*:)/g;
const QUOTE = 34;

/**
 * JSON.parse, except that integers beyond Number.MAX_SAFE_INTEGER (Shopify IDs above 2^53) come
 * back as their exact decimal digits, as strings. Throws SyntaxError on invalid JSON.
 *
 * Such integers are quoted in the text before JSON.parse sees it. This gives what a reviver
 * reading `context.source` gives (the tests hold it to that), at half its cost: the reviver's
 * call per value was the largest part of accepting an orders/create webhook.
 */
export function parseWebhookJson(raw: string): unknown {
  const quoted = raw.replace(STRING_OR_LONG_INTEGER, (token) =>
    token.charCodeAt(0) === QUOTE || Number.isSafeInteger(Number(token)) ? token : `"${token}"`,
  );
  return JSON.parse(quoted);
}
