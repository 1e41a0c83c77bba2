import type { DemoLinks } from "./local-demo";

// What `npm run local` itself prints, kept apart from the app's request logs: each demo line
// carries a coloured "demo" prefix, and the pages to open come last in a framed block.

const BOLD_MAGENTA = "\u001b[1;35m";
const BOLD = "\u001b[1m";
const RESET = "\u001b[0m";

export interface DevOutput {
  /** One line of the dev script: its start-up (`local`) or a step of the demo (`demo`). */
  line(text: string, label?: "local" | "demo"): void;
  /** The pages to open, and where to look next. */
  links(links: DemoLinks, notes: readonly string[]): void;
}

export function linksBlock(links: DemoLinks, notes: readonly string[], colour: boolean): string {
  const paint = (code: string, text: string) => (colour ? `${code}${text}${RESET}` : text);
  const rows = [
    `${paint(BOLD, "Product page ")} ${links.productPage}`,
    `${paint(BOLD, "Cart         ")} ${links.cart}`,
    `${paint(BOLD, "Admin        ")} ${links.admin}`,
    "",
    ...notes,
  ];
  const rule = "─".repeat(72);
  return [
    "",
    paint(BOLD_MAGENTA, `┌─ svc-protection is running ${rule.slice(29)}`),
    ...rows.map((row) => `${paint(BOLD_MAGENTA, "│")} ${row}`),
    paint(BOLD_MAGENTA, `└${rule}`),
    "",
  ].join("\n");
}

export function devOutput(
  colour: boolean,
  write: (text: string) => void = (text) => process.stdout.write(text),
): DevOutput {
  const prefix = (label: string) => (colour ? `${BOLD_MAGENTA}${label} ▸${RESET} ` : `${label} ▸ `);
  return {
    line: (text, label = "demo") => write(`${prefix(label.padEnd(5))}${text}\n`),
    // One write, so no log line of another process lands inside the block.
    links: (links, notes) => write(`${linksBlock(links, notes, colour)}\n`),
  };
}
