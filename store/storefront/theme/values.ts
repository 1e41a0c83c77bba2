import { Drop } from "liquidjs";

/*
 * Shopify's typed setting values as Liquid sees them: a colour prints as its hex and has
 * .red/.green/.blue; a colour scheme prints as its ID and has .settings; a font has
 * .family/.weight/.style/.system?. Themes do arithmetic and comparisons on these, so plain
 * strings break them.
 */

export class ColorDrop extends Drop {
  readonly red: number;
  readonly green: number;
  readonly blue: number;
  readonly alpha: number;

  constructor(red: number, green: number, blue: number, alpha = 1) {
    super();
    this.red = clamp(Math.round(red), 0, 255);
    this.green = clamp(Math.round(green), 0, 255);
    this.blue = clamp(Math.round(blue), 0, 255);
    this.alpha = alpha;
  }

  static parse(text: string): ColorDrop | undefined {
    const hex = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(text.trim())?.[1];
    if (hex) {
      const full = hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex;
      const channel = (at: number) => parseInt(full.slice(at, at + 2), 16);
      return new ColorDrop(
        channel(0),
        channel(2),
        channel(4),
        full.length === 8 ? channel(6) / 255 : 1,
      );
    }
    const rgb = /^rgba?\(\s*(\d+)[\s,]+(\d+)[\s,]+(\d+)(?:[\s,/]+([\d.]+))?\s*\)$/i.exec(
      text.trim(),
    );
    if (rgb)
      return new ColorDrop(Number(rgb[1]), Number(rgb[2]), Number(rgb[3]), Number(rgb[4] ?? 1));
    return undefined;
  }

  get rgb(): string {
    return `${this.red} ${this.green} ${this.blue}`;
  }

  get rgba(): string {
    return `${this.red} ${this.green} ${this.blue} / ${this.alpha}`;
  }

  get hsl(): { hue: number; saturation: number; lightness: number } {
    const [r, g, b] = [this.red / 255, this.green / 255, this.blue / 255];
    const max = Math.max(r, g, b);
    const min = Math.min(r, g, b);
    const lightness = (max + min) / 2;
    if (max === min) return { hue: 0, saturation: 0, lightness: lightness * 100 };
    const d = max - min;
    const saturation = lightness > 0.5 ? d / (2 - max - min) : d / (max + min);
    const hue =
      max === r ? (g - b) / d + (g < b ? 6 : 0) : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
    return { hue: hue * 60, saturation: saturation * 100, lightness: lightness * 100 };
  }

  get hue(): number {
    return Math.round(this.hsl.hue);
  }

  get saturation(): number {
    return Math.round(this.hsl.saturation);
  }

  get lightness(): number {
    return Math.round(this.hsl.lightness);
  }

  /** Shopify's color_brightness: the W3C perceived brightness, 0-255. */
  get brightness(): number {
    return (this.red * 299 + this.green * 587 + this.blue * 114) / 1000;
  }

  withLightness(delta: number): ColorDrop {
    const { hue, saturation, lightness } = this.hsl;
    return ColorDrop.fromHsl(hue, saturation, clamp(lightness + delta, 0, 100), this.alpha);
  }

  static fromHsl(hue: number, saturation: number, lightness: number, alpha = 1): ColorDrop {
    const s = saturation / 100;
    const l = lightness / 100;
    const k = (n: number) => (n + hue / 30) % 12;
    const a = s * Math.min(l, 1 - l);
    const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
    return new ColorDrop(f(0) * 255, f(8) * 255, f(4) * 255, alpha);
  }

  override valueOf(): string {
    const hex = (n: number) => n.toString(16).padStart(2, "0");
    const base = `#${hex(this.red)}${hex(this.green)}${hex(this.blue)}`;
    return this.alpha < 1 ? `rgba(${this.red}, ${this.green}, ${this.blue}, ${this.alpha})` : base;
  }

  override toString(): string {
    return this.valueOf();
  }

  toJSON(): string {
    return this.valueOf();
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

export class ColorSchemeDrop extends Drop {
  constructor(
    readonly id: string,
    readonly settings: Record<string, unknown>,
  ) {
    super();
  }

  override valueOf(): string {
    return this.id;
  }

  override toString(): string {
    return this.id;
  }

  toJSON(): string {
    return this.id;
  }
}

/*
 * Fonts: Shopify's font library is not offline, so every font setting is the system font stack
 * (a font Shopify itself offers as "System"). font_face then prints nothing and no font file is
 * requested, as on Shopify for a system font.
 */
export class FontDrop extends Drop {
  readonly family = "-apple-system";
  readonly fallback_families =
    'BlinkMacSystemFont, "Segoe UI", Roboto, Ubuntu, "Helvetica Neue", sans-serif';
  readonly "system?" = true;
  readonly baseline_ratio = 0;
  readonly variants: FontDrop[] = [];

  constructor(
    readonly handle: string,
    readonly weight: number,
    readonly style: string,
  ) {
    super();
  }

  /** Dawn's handles read like "assistant_n4": n/i for the style, the weight in hundreds. */
  static fromHandle(handle: string): FontDrop {
    const variant = /_([ni])(\d)$/.exec(handle);
    const style = variant?.[1] === "i" ? "italic" : "normal";
    return new FontDrop(handle, Number(variant?.[2] ?? 4) * 100, style);
  }

  modified(property: string, value: string): FontDrop {
    if (property === "style") {
      const style = value === "italic" || value === "oblique" ? "italic" : "normal";
      return new FontDrop(this.handle, this.weight, style);
    }
    if (property === "weight") {
      const weight =
        value === "bold"
          ? 700
          : value === "normal"
            ? 400
            : /^[+-]\d+$/.test(value)
              ? this.weight + Number(value)
              : Number(value);
      return new FontDrop(this.handle, clamp(weight, 100, 900), this.style);
    }
    throw new Error(`font_modify does not know the property ${JSON.stringify(property)}`);
  }

  override valueOf(): string {
    return this.handle;
  }

  override toString(): string {
    return this.handle;
  }
}

/** Shopify's money formats (`shop.money_format`), with the currency's symbol where we know it. */
const SYMBOLS: Record<string, string> = {
  USD: "$",
  CAD: "$",
  AUD: "$",
  NZD: "$",
  EUR: "€",
  GBP: "£",
  JPY: "¥",
  CHF: "CHF ",
  SEK: "kr",
  DKK: "kr.",
};

export interface MoneyFormats {
  money_format: string;
  money_with_currency_format: string;
}

export function moneyFormatsOf(currency: string, decimals: number): MoneyFormats {
  const amount = decimals === 0 ? "{{amount_no_decimals}}" : "{{amount}}";
  const symbol = SYMBOLS[currency];
  const money = symbol === undefined ? `${amount} ${currency}` : `${symbol}${amount}`;
  return {
    money_format: money,
    money_with_currency_format: symbol === undefined ? money : `${money} ${currency}`,
  };
}

/** Shopify's formatMoney: the format's {{placeholder}} with the minor units written in. */
export function formatMoney(minorUnits: number, format: string, decimals: number): string {
  const amount = (places: number, thousands: string, point: string) => {
    const [whole = "", fraction] = (minorUnits / 10 ** decimals).toFixed(places).split(".");
    return whole.replace(/\B(?=(\d{3})+(?!\d))/g, thousands) + (fraction ? point + fraction : "");
  };
  const styles: Record<string, () => string> = {
    amount: () => amount(decimals, ",", "."),
    amount_no_decimals: () => amount(0, ",", "."),
    amount_with_comma_separator: () => amount(decimals, ".", ","),
    amount_no_decimals_with_comma_separator: () => amount(0, ".", ","),
    amount_with_apostrophe_separator: () => amount(decimals, "'", "."),
    amount_with_space_separator: () => amount(decimals, " ", ","),
    amount_no_decimals_with_space_separator: () => amount(0, " ", ","),
    amount_with_period_and_space_separator: () => amount(decimals, " ", "."),
  };
  return format.replace(/\{\{\s*(\w+)\s*\}\}/, (_, name: string) => {
    const style = styles[name];
    if (!style) throw new Error(`Unknown money format placeholder {{${name}}} in ${format}`);
    return style();
  });
}
