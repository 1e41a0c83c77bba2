const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const COLON = 0x3a;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
/** Fewer digits than this always fit a double exactly (2^53 has 16). */
const SHORTEST_UNSAFE = 16;

/**
 * JSON.parse, except that integers beyond Number.MAX_SAFE_INTEGER (Shopify IDs above 2^53) come
 * back as their exact decimal digits, as strings. Throws SyntaxError on invalid JSON.
 *
 * One forward scan finds such integers and quotes them before JSON.parse sees the text; it never
 * looks back, so its cost is linear in the text whatever the text is (issue 13: a regex doing the
 * same took 39 s on 250 KB of unclosed quotes from the public app proxy). A document without
 * such integers is handed to JSON.parse as it came. Gives what a reviver reading
 * `context.source` gives (the tests hold it to that), at half its cost per webhook.
 */
export function parseWebhookJson(raw: string): unknown {
  return JSON.parse(quoteUnsafeIntegers(raw));
}

/**
 * The text with every integer literal beyond 2^53 in a value position written as a string. Keys
 * (a number followed by a colon) and numbers glued to other characters are left alone, so
 * invalid JSON stays invalid; so is a leading zero, which JSON does not allow.
 */
export function quoteUnsafeIntegers(raw: string): string {
  let parts: string[] | undefined;
  let copiedUpTo = 0;
  const length = raw.length;
  let index = 0;
  while (index < length) {
    const code = raw.charCodeAt(index);
    if (code === QUOTE) {
      index = endOfString(raw, index);
      continue;
    }
    if (code !== MINUS && !isDigit(code)) {
      index += 1;
      continue;
    }
    const start = index;
    const end = endOfNumber(raw, index);
    index = end;
    if (!isUnsafeIntegerToken(raw, start, end)) continue;
    parts ??= [];
    parts.push(raw.slice(copiedUpTo, start), '"', raw.slice(start, end), '"');
    copiedUpTo = end;
  }
  if (!parts) return raw;
  parts.push(raw.slice(copiedUpTo));
  return parts.join("");
}

/** The index after the string that opens at `start` (or the end of an unclosed one). */
function endOfString(raw: string, start: number): number {
  let index = start + 1;
  while (index < raw.length) {
    const code = raw.charCodeAt(index);
    if (code === BACKSLASH) index += 2;
    else if (code === QUOTE) return index + 1;
    else index += 1;
  }
  return raw.length;
}

/** The index after the run of number characters (digits, sign, point, exponent) at `start`. */
function endOfNumber(raw: string, start: number): number {
  let index = start + 1;
  while (index < raw.length) {
    const code = raw.charCodeAt(index);
    const lower = code | 0x20;
    if (isDigit(code) || code === DOT || code === PLUS || code === MINUS || lower === 0x65) {
      index += 1;
    } else {
      break;
    }
  }
  return index;
}

function isUnsafeIntegerToken(raw: string, start: number, end: number): boolean {
  const negative = raw.charCodeAt(start) === MINUS;
  const firstDigit = negative ? start + 1 : start;
  if (end - firstDigit < SHORTEST_UNSAFE) return false;
  if (raw.charCodeAt(firstDigit) === DIGIT_0) return false;
  for (let index = firstDigit; index < end; index += 1) {
    if (!isDigit(raw.charCodeAt(index))) return false;
  }
  if (isGlued(raw.charCodeAt(start - 1)) || isGlued(raw.charCodeAt(end))) return false;
  if (nextNonWhitespace(raw, end) === COLON) return false;
  return !Number.isSafeInteger(Number(raw.slice(start, end)));
}

/** A character that would make the digits part of a longer token (NaN past the ends). */
function isGlued(code: number): boolean {
  return (
    isDigit(code) ||
    code === DOT ||
    code === PLUS ||
    code === MINUS ||
    code === 0x5f ||
    ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a)
  );
}

function nextNonWhitespace(raw: string, from: number): number {
  let index = from;
  for (;;) {
    const code = raw.charCodeAt(index);
    if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return code;
    index += 1;
  }
}

function isDigit(code: number): boolean {
  return code >= DIGIT_0 && code <= DIGIT_9;
}
