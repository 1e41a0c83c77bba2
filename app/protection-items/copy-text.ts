import { formatMinorUnits } from "../lib/money";
import type { Strategy } from "./strategies";

export interface CopyableItem {
  variantId: string;
  title: string;
  priceAmount: number | null;
  currency: string | null;
  category: string | null;
  strategy: Strategy;
}

/** Column names in the service's own terms: the text is for the service's account manager. */
export const COPY_COLUMNS = ["merchant_product_id", "title", "price", "category", "strategy"];

const STRATEGY_NAMES: Record<Strategy, string> = {
  one_to_one: "one-to-one",
  one_to_many: "one-to-many",
  one_to_all: "one-to-all",
};

/**
 * The items as tab-separated text with a header row, ready to paste into a spreadsheet or an
 * email: one line per item, the variant ID first. Tabs and line breaks inside a value become
 * spaces so that every item stays on its own line.
 */
export function toCopyText(items: readonly CopyableItem[]): string {
  const rows = items.map((item) => [
    item.variantId,
    item.title,
    item.priceAmount === null || !item.currency
      ? "dynamic"
      : `${formatMinorUnits(item.priceAmount, item.currency)} ${item.currency.toUpperCase()}`,
    item.category ?? "",
    STRATEGY_NAMES[item.strategy],
  ]);
  return [COPY_COLUMNS, ...rows]
    .map((cells) => cells.map((cell) => cell.replace(/[\t\r\n]+/g, " ").trim()).join("\t"))
    .join("\n");
}
