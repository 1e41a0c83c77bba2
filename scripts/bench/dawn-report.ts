import { DISTURBED_CPUS } from "./cpu";
import { machineLine, type MachineInfo } from "./report";
import {
  lighthouseMedians,
  type CpuUse,
  type LighthouseMetrics,
  type ReservedSpace,
} from "./storefront-report";
import { median } from "./stats";

export const DAWN_SECTION = {
  name: "dawn",
  heading: "## Dawn with and without the extension (npm run bench:dawn)",
};

/** Issue 18's targets for our block and embed in Dawn. */
export const DAWN_TARGETS = {
  /** Lighthouse performance points the page may lose with the block and embed on. */
  scoreDrop: 1,
  /** CLS with the extension less CLS without. */
  clsDifference: 0,
};

export type DawnPage = "product" | "cart";

export interface DawnRun extends LighthouseMetrics {
  page: DawnPage;
  withExtension: boolean;
}

export interface DawnResult {
  runs: DawnRun[];
  warmUpRuns: number;
  lighthouse: string;
  chromium: string;
  /** The preset's form factor, screen and throttling. */
  settings: string;
  /** The carts' lines, e.g. "1×product + 1×plan", with and without the extension. */
  carts: { with: string; without: string };
  /** The offer on the product page at Lighthouse's mobile width, plans held back then shown. */
  reserved: ReservedSpace;
  /** Over the Lighthouse runs. */
  cpu: CpuUse;
  /** The store's render, GET to the whole page: the first after the start, then each setting's. */
  serverRender: {
    firstMs: number;
    pages: { page: DawnPage; withExtension: boolean; ms: number[] }[];
  };
}

const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });
const ms = (value: number) => (Number.isNaN(value) ? "–" : `${oneDecimal.format(value)} ms`);
const clsText = (value: number) => (value === 0 ? "0" : value.toFixed(4));
const verdict = (pass: boolean) => (pass ? "PASS" : "MISS");
const signedMs = (value: number) =>
  `${value >= 0 ? "+" : "−"}${oneDecimal.format(Math.abs(value))} ms`;

function summary(result: DawnResult, page: DawnPage, withExtension: boolean) {
  return lighthouseMedians(
    result.runs.filter((run) => run.page === page && run.withExtension === withExtension),
  );
}

const PAGE_NAMES: Record<DawnPage, string> = { product: "Product page", cart: "Cart page" };

function settingName(result: DawnResult, page: DawnPage, withExtension: boolean) {
  if (page === "product") return withExtension ? "block and embed on" : "both off";
  return withExtension
    ? `embed on, cart ${result.carts.with}`
    : `both off, cart ${result.carts.without}`;
}

export function renderDawnSection(
  machine: MachineInfo,
  command: string,
  result: DawnResult,
): string {
  const t = DAWN_TARGETS;
  const pages: DawnPage[] = ["product", "cart"];
  const targetRows = pages.flatMap((page) => {
    const on = summary(result, page, true);
    const off = summary(result, page, false);
    const drop = off.score - on.score;
    const difference = drop > 0 ? `${drop} lower` : drop < 0 ? `${-drop} higher` : "equal";
    const clsDifference = on.cls - off.cls;
    return [
      [
        `${PAGE_NAMES[page]}: Lighthouse performance score, median with / without`,
        `≤ ${t.scoreDrop} point lower`,
        `${on.score} / ${off.score}, ${difference} ${verdict(drop <= t.scoreDrop)}`,
      ],
      [
        `${PAGE_NAMES[page]}: CLS, median with less median without`,
        `${t.clsDifference}`,
        `${clsText(on.cls)} − ${clsText(off.cls)} = ${clsText(clsDifference)} ${verdict(clsDifference <= t.clsDifference)}`,
      ],
    ];
  });
  const targets = [
    "| Measure | Target | Result |",
    "| --- | --- | --: |",
    ...targetRows.map((row) => `| ${row.join(" | ")} |`),
  ].join("\n");

  const medians = [
    "| Page, setting | Runs' scores | Score | FCP | LCP | TBT | CLS | Speed Index | Server response | Extension scripts | LCP element |",
    "| --- | --- | --: | --: | --: | --: | --: | --: | --: | --: | --- |",
    ...pages.flatMap((page) =>
      [true, false].map((withExtension) => {
        const s = summary(result, page, withExtension);
        const scripts = withExtension
          ? `${ms(s.extensionScriptMs)} (in ${s.extensionScriptListed} of ${s.runs})`
          : "–";
        const lcp = s.lcpElements.map((label) => `\`${label}\``).join(", ");
        return `| ${PAGE_NAMES[page]}, ${settingName(result, page, withExtension)} | ${s.scores.join(", ")} | ${s.score} | ${ms(s.fcpMs)} | ${ms(s.lcpMs)} | ${ms(s.tbtMs)} | ${clsText(s.cls)} | ${ms(s.speedIndexMs)} | ${ms(s.serverResponseMs)} | ${scripts} | ${lcp} |`;
      }),
    ),
  ].join("\n");

  const disturbed = result.cpu.other > DISTURBED_CPUS;
  const extensionCss = [
    ...new Set(
      result.runs
        .filter((run) => run.withExtension)
        .flatMap((run) => run.renderBlocking)
        .filter((url) => url.includes("/extensions/svc-protection/")),
    ),
  ].map((url) => `\`${new URL(url).pathname.split("/").pop() ?? url}\``);
  const reserved = result.reserved;

  return [
    `Last run: ${machine.date}, \`${command}\`.`,
    "",
    `Machine: ${machineLine(machine)}; ${result.chromium}; Lighthouse ${result.lighthouse} (benchmarkIndex median ${integer.format(median(result.runs.map((run) => run.benchmarkIndex)))}).`,
    ...(disturbed
      ? [
          "",
          `**Disturbed:** other processes on the machine used ${result.cpu.other.toFixed(2)} CPUs (more than ${DISTURBED_CPUS}) during the runs; timings are slower than on a quiet machine.`,
        ]
      : []),
    "",
    targets,
    "",
    medians,
    "",
    "How it is measured:",
    "",
    `- The page: Shopify's Dawn 15.4.1 rendered by the local store (\`store/storefront/theme/\`, decision 031), a shop with one product (a laptop at €1,299.00) on the Online Store and the app's protection product (two plans, created by the app's own admin action). The offer's \`/apps/svc/plans\` request goes through the store's app proxy (signed, decision 032) to the built app (\`npm start\`, test/support/app-against-store.ts) on a throwaway SQLite database, which asks the protection-service emulator (\`SVC_PLANS_CACHE_TTL_SECONDS=0\`: every lookup reaches it). Before measuring, Chromium checked that the offer shows both plans and that the page with the switches off has nothing of ours.`,
    `- With and without: one store, whose theme-editor switches (\`StoreOptions.storefrontApp\`: our app block in the product template and the cart-rules app embed) are flipped between runs, so both settings see the same products, carts and server. Without them Dawn renders no block markup and loads none of the extension's CSS or JS.`,
    `- The cart page: the store's Ajax Cart API filled two carts before the runs (\`/cart/add.js\`), ${result.carts.with} (the plan line as our offer adds it, \`_svc_protected_product_ref\` naming the product) for the runs with the extension, ${result.carts.without} for those without; Lighthouse sends the cart's \`cart\` cookie with every request (\`extraHeaders\`). Both carts were checked unchanged after the runs.`,
    `- Lighthouse: the \`lighthouse\` package's Node API, performance category only, ${result.settings}. One Debian Chromium per run (\`--headless --no-sandbox --disable-gpu\`, no network beyond the machine, a fresh \`--user-data-dir\`); the product page and the cart page, with and without, interleaved (each pair in the other order than the one before), after ${result.warmUpRuns} uncounted warm-up pair(s) of each; medians of ${summary(result, "product", true).runs} runs each. FCP, LCP and Speed Index are Lighthouse's simulated figures. "Server response" is the \`server-response-time\` audit (the HTML's time to first byte). "Extension scripts" is the \`bootup-time\` audit's total for the extension's files (\`svc-offer.min.js\`, \`svc-cart-rules.min.js\`; CPU slowdown included), with the audit's threshold lowered from 50 ms to 0 so every file is listed (the audit is outside the score).`,
    `- CPU over the runs: this benchmark (store, app, emulator, Chromium) ${result.cpu.bench.toFixed(2)} CPUs, other processes ${result.cpu.other.toFixed(2)} CPUs, over ${oneDecimal.format(result.cpu.wallMs / 1000)} s.`,
    "",
    "Reading:",
    "",
    ...readingOf(result, extensionCss, reserved).map((line) => `- ${line}`),
  ].join("\n");
}

function readingOf(result: DawnResult, extensionCss: string[], reserved: ReservedSpace): string[] {
  const lines: string[] = [];
  for (const page of ["product", "cart"] as const) {
    const on = summary(result, page, true);
    const off = summary(result, page, false);
    const spread = (scores: number[]) => Math.max(...scores) - Math.min(...scores);
    lines.push(
      `${PAGE_NAMES[page]}: ${on.score} with, ${off.score} without (medians; the runs of one setting spread by up to ${Math.max(spread(on.scores), spread(off.scores))} points). With less without: FCP ${signedMs(on.fcpMs - off.fcpMs)}, LCP ${signedMs(on.lcpMs - off.lcpMs)}, TBT ${signedMs(on.tbtMs - off.tbtMs)}, Speed Index ${signedMs(on.speedIndexMs - off.speedIndexMs)}, CLS ${clsText(on.cls)} against ${clsText(off.cls)}; our scripts ${ms(on.extensionScriptMs)} of main-thread time.`,
    );
  }
  const grew = reserved.readyHeight - reserved.reservedHeight;
  lines.push(
    `The offer at ${reserved.viewport} (${oneDecimal.format(reserved.offerWidth)} px wide): ${oneDecimal.format(reserved.reservedHeight)} px reserved while its plans load, ${oneDecimal.format(reserved.readyHeight)} px with them${Math.abs(grew) < 1 ? ", the same height: the plans fill the space held for them and nothing below moves" : `: ${grew > 0 ? "it grows" : "it shrinks"} by ${oneDecimal.format(Math.abs(grew))} px when they arrive, and what follows moves`}.`,
  );
  if (extensionCss.length) {
    lines.push(
      `Lighthouse's render-blocking insight lists ${extensionCss.join(", ")}: the schemas' stylesheet, a \`<link rel="stylesheet">\` in the head as Shopify adds it, small beside Dawn's own CSS.`,
    );
  }
  const renders = result.serverRender.pages
    .map(
      (render) =>
        `${render.page} ${render.withExtension ? "with" : "without"} ${ms(median(render.ms))}`,
    )
    .join(", ");
  const server = median(result.runs.map((run) => run.serverResponseMs));
  lines.push(
    `The store renders every page with liquidjs on each request: the first product page after the start took ${ms(result.serverRender.firstMs)} (Dawn's templates parsed then, and cached), later ones (medians of ${result.serverRender.pages[0]?.ms.length ?? 0} GETs) ${renders}; Lighthouse's server response, median of all runs, ${ms(server)}. Shopify serves its storefront from a cache; this wait delays FCP and LCP with and without the extension alike, so it lowers both scores and the difference between the two settings is what measures our extension, not the absolute scores.`,
  );
  return lines;
}
