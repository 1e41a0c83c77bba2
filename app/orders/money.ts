// ISO 4217 minor-unit exponents that differ from the usual 2.
const EXPONENT_0 = new Set(
  "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF".split(" "),
);
const EXPONENT_3 = new Set("BHD IQD JOD KWD LYD OMR TND".split(" "));
const EXPONENT_4 = new Set("CLF UYW".split(" "));

/** Digits after the decimal point in the currency's minor unit (ISO 4217); 2 for any other code. */
export function currencyExponent(code: string): number {
  if (!/^[A-Za-z]{3}$/.test(code)) {
    throw new Error(
      `Unknown currency code ${JSON.stringify(code)}: expected three letters such as "EUR"`,
    );
  }
  const upper = code.toUpperCase();
  if (EXPONENT_0.has(upper)) return 0;
  if (EXPONENT_3.has(upper)) return 3;
  if (EXPONENT_4.has(upper)) return 4;
  return 2;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * A decimal amount ("19.99", or a number) as an integer count of the currency's minor unit.
 * Works on the decimal digits, never on floats; extra fraction digits round half away from zero.
 */
export function toMinorUnits(amount: string | number, currency: string): number {
  const exponent = currencyExponent(currency);
  const text = typeof amount === "number" ? String(amount) : amount;
  const match = DECIMAL.exec(text);
  if (!match || (typeof amount === "number" && !Number.isFinite(amount))) {
    throw new Error(
      `Cannot convert ${JSON.stringify(amount)} to minor units of ${currency.toUpperCase()}: not a decimal amount`,
    );
  }
  const [, sign = "", whole = "", fraction = ""] = match;
  const kept = fraction.slice(0, exponent).padEnd(exponent, "0");
  let minor = BigInt(whole + kept);
  const firstDropped = fraction.charAt(exponent);
  if (firstDropped !== "" && firstDropped >= "5") minor += 1n;
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new Error(
      `Cannot convert ${JSON.stringify(amount)} to minor units of ${currency.toUpperCase()}: too large`,
    );
  }
  const magnitude = Number(minor);
  return sign === "-" && magnitude !== 0 ? -magnitude : magnitude;
}
