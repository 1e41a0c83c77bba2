import { DISTURBED_CPUS, type CpuShares } from "./cpu";
import { machineLine, type MachineInfo } from "./report";
import { median, percentile } from "./stats";

/** The storefront budgets of the theme app extension. */
export const STOREFRONT_TARGETS = {
  /** All JavaScript the block and the embed load, gzip. */
  javaScriptGzipBytes: 8 * 1024,
  cls: 0,
  /** From the page's load event to the offer visible with its plans. */
  offerVisibleAfterLoadMs: 200,
  /** Lighthouse performance points the page may lose with the block and embed on. */
  lighthouseScoreDrop: 2,
};

export type LighthousePreset = "mobile" | "desktop";

export interface ScriptTag {
  /** The tag as rendered, e.g. `<script src="…" defer>`. */
  tag: string;
  src: string | null;
  /** defer, async, type=module, or a non-JavaScript type: never blocks the parser. */
  nonBlocking: boolean;
}

export interface LayoutCase {
  name: string;
  /** Held to the CLS 0 budget; false for the reference page without the extension. */
  budget: boolean;
  loads: number;
  /** CLS of each load, in load order. */
  values: number[];
  /** Of all loads: the largest shift and what moved. */
  largestShift: { value: number; sources: string[] } | null;
}

export interface ReservedSpace {
  viewport: string;
  offerWidth: number;
  /** Height of the offer while loading: the space it reserves. */
  reservedHeight: number;
  /** Height once its plans are shown. */
  readyHeight: number;
}

export interface OfferTiming {
  loads: number;
  /** Offer painted − loadEventStart, per load (negative: before the load event). */
  afterLoadMs: number[];
  afterDomContentLoadedMs: number[];
  afterFirstContentfulPaintMs: number[];
  /** The /apps/svc/plans request: start relative to the load event, and its duration. */
  plansStartAfterLoadMs: number[];
  plansDurationMs: number[];
  /** From the plans answer's end to the rows in the DOM, and from there to their paint. */
  renderedAfterAnswerMs: number[];
  paintedAfterRenderMs: number[];
  loadEventMs: number[];
  /** How "visible" was timed. */
  method: string;
  /** JavaScript files each load fetched from the extension, to check nothing loads later. */
  extensionScriptsPerLoad: number[];
}

/** What one Lighthouse run measured of one page. */
export interface LighthouseMetrics {
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
  /** URLs of the render-blocking-insight audit. */
  renderBlocking: string[];
  /** bootup-time (CPU slowdown applied) of the extension's scripts; it lists scripts from 50 ms. */
  extensionScriptMs: number;
  /** The LCP element, from the lcp-breakdown-insight audit. */
  lcpElement: string;
  /** FCP and LCP as they happened in the unthrottled load Lighthouse simulates from. */
  observedFcpMs: number;
  observedLcpMs: number;
  /** The server-response-time audit: the main document's time to first byte. */
  serverResponseMs: number;
  benchmarkIndex: number;
}

export interface LighthouseRun extends LighthouseMetrics {
  preset: LighthousePreset;
  withExtension: boolean;
}

/** `bench`: this process and its children (harness, app, emulator, Chromium). */
export type CpuUse = CpuShares<"bench">;

export interface StorefrontResult {
  javaScript: {
    files: { name: string; bytes: number; gzipBytes: number }[];
    totalGzipBytes: number;
    /** What the rendered product page loads from the extension, gzip, same measure. */
    servedGzipBytes: number;
    servedFiles: string[];
  };
  scripts: { added: ScriptTag[]; stylesheetsAdded: string[]; inlineInBlocks: number };
  layout: LayoutCase[];
  reserved: ReservedSpace[];
  offer: OfferTiming;
  lighthouse: {
    runs: LighthouseRun[];
    warmUpRuns: number;
    version: string;
    settings: string[];
  };
  cpu: { browser: CpuUse; lighthouse: CpuUse };
  chromium: string;
  notes: string[];
}

const integer = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

const verdict = (pass: boolean) => (pass ? "PASS" : "MISS");
const ms = (value: number) => `${oneDecimal.format(value)} ms`;
const bytes = (value: number) => `${integer.format(value)} B`;
const clsText = (value: number) => (value === 0 ? "0" : value.toFixed(4));

export function lighthouseSummary(
  runs: LighthouseRun[],
  preset: LighthousePreset,
  withExtension: boolean,
) {
  return lighthouseMedians(
    runs.filter((run) => run.preset === preset && run.withExtension === withExtension),
  );
}

/** The medians of runs of one page in one setting, and each run's score. */
export function lighthouseMedians(chosen: LighthouseMetrics[]) {
  const of = (pick: (run: LighthouseMetrics) => number) => median(chosen.map(pick));
  return {
    runs: chosen.length,
    scores: chosen.map((run) => run.score),
    score: of((run) => run.score),
    fcpMs: of((run) => run.fcpMs),
    lcpMs: of((run) => run.lcpMs),
    tbtMs: of((run) => run.tbtMs),
    cls: of((run) => run.cls),
    speedIndexMs: of((run) => run.speedIndexMs),
    /** Runs whose bootup-time listed an extension file, and the median of those totals. */
    extensionScriptListed: chosen.filter((run) => run.extensionScriptMs > 0).length,
    extensionScriptMs: median(
      chosen.filter((run) => run.extensionScriptMs > 0).map((run) => run.extensionScriptMs),
    ),
    lcpElements: [...new Set(chosen.map((run) => run.lcpElement))],
    observedFcpMs: of((run) => run.observedFcpMs),
    observedLcpMs: of((run) => run.observedLcpMs),
    serverResponseMs: of((run) => run.serverResponseMs),
  };
}

/** A Markdown table of measures: each row its measure, its target and its result. */
export function targetTable(rows: string[][]): string {
  return [
    "| Measure | Target | Result |",
    "| --- | --- | --: |",
    ...rows.map((row) => `| ${row.join(" | ")} |`),
  ].join("\n");
}

function cpuLine(name: string, cpu: CpuUse) {
  return `${name}: this benchmark (harness, app, emulator, Chromium) ${cpu.bench.toFixed(2)} CPUs, other processes ${cpu.other.toFixed(2)} CPUs, over ${oneDecimal.format(cpu.wallMs / 1000)} s`;
}

const list = (values: string[]) => values.join(", ");

export function renderStorefrontSection(
  machine: MachineInfo,
  command: string,
  result: StorefrontResult,
): string {
  const t = STOREFRONT_TARGETS;
  const js = result.javaScript;
  const blocking = result.scripts.added.filter((script) => !script.nonBlocking);
  const lhExtensionUrls = [
    ...new Set(
      result.lighthouse.runs
        .filter((run) => run.withExtension)
        .flatMap((run) => run.renderBlocking)
        .filter((url) => url.includes("/extensions/svc-protection/")),
    ),
  ];
  const lhBlockingScripts = lhExtensionUrls.filter((url) => /\.m?js(\?|$)/.test(url));
  const noBlockingScript = blocking.length === 0 && lhBlockingScripts.length === 0;
  const jsPass =
    js.totalGzipBytes <= t.javaScriptGzipBytes && js.servedGzipBytes <= t.javaScriptGzipBytes;

  const offer = result.offer;
  const offerMedian = percentile(offer.afterLoadMs, 0.5);
  const offerP95 = percentile(offer.afterLoadMs, 0.95);
  const presets = [...new Set(result.lighthouse.runs.map((run) => run.preset))];

  const rows: string[][] = [
    [
      "Storefront JavaScript, gzip: all `assets/*.js`; what the product page loads",
      `≤ ${bytes(t.javaScriptGzipBytes)}`,
      `${bytes(js.totalGzipBytes)}; ${bytes(js.servedGzipBytes)} ${verdict(jsPass)}`,
    ],
    [
      "Render-blocking scripts added: in the rendered HTML; in Lighthouse's render-blocking insight",
      "none",
      `${blocking.length} of ${result.scripts.added.length}; ${lhBlockingScripts.length} ${verdict(noBlockingScript)}`,
    ],
    ...result.layout.map((layout) => {
      const max = Math.max(...layout.values);
      return [
        `CLS, ${layout.name}: median / max of ${layout.loads} loads`,
        layout.budget ? `${t.cls}` : "(reported)",
        `${clsText(median(layout.values))} / ${clsText(max)}${layout.budget ? ` ${verdict(max <= t.cls)}` : ""}`,
      ];
    }),
    [
      `Offer visible after the load event, median of ${offer.loads} loads`,
      `≤ ${t.offerVisibleAfterLoadMs} ms`,
      `${ms(offerMedian)} ${verdict(offerMedian <= t.offerVisibleAfterLoadMs)}`,
    ],
    [
      "Offer visible after the load event, p95",
      `≤ ${t.offerVisibleAfterLoadMs} ms`,
      `${ms(offerP95)} ${verdict(offerP95 <= t.offerVisibleAfterLoadMs)}`,
    ],
    ...presets.map((preset) => {
      const on = lighthouseSummary(result.lighthouse.runs, preset, true);
      const off = lighthouseSummary(result.lighthouse.runs, preset, false);
      const drop = off.score - on.score;
      const difference = drop > 0 ? `${drop} lower` : drop < 0 ? `${-drop} higher` : "equal";
      return [
        `Lighthouse performance score, ${preset}: median with / without block and embed`,
        `≤ ${t.lighthouseScoreDrop} points lower`,
        `${on.score} / ${off.score}, ${difference} ${verdict(drop <= t.lighthouseScoreDrop)}`,
      ];
    }),
  ];
  const table = targetTable(rows);

  const lhTable = [
    "| Lighthouse, medians | Runs' scores | Score | FCP | LCP | TBT | CLS | Speed Index | Observed FCP / LCP | Extension scripts | LCP element |",
    "| --- | --- | --: | --: | --: | --: | --: | --: | --: | --: | --- |",
    ...presets.flatMap((preset) =>
      [true, false].map((withExtension) => {
        const s = lighthouseSummary(result.lighthouse.runs, preset, withExtension);
        const name = `${preset}, ${withExtension ? "with block and embed" : "without"}`;
        const scripts = !withExtension
          ? "–"
          : s.extensionScriptListed
            ? `${ms(s.extensionScriptMs)} (in ${s.extensionScriptListed} of ${s.runs})`
            : "< 50 ms";
        const lcp = s.lcpElements.map((label) => `\`${label}\``).join(", ");
        return `| ${name} | ${s.scores.join(", ")} | ${s.score} | ${ms(s.fcpMs)} | ${ms(s.lcpMs)} | ${ms(s.tbtMs)} | ${clsText(s.cls)} | ${ms(s.speedIndexMs)} | ${ms(s.observedFcpMs)} / ${ms(s.observedLcpMs)} | ${scripts} | ${lcp} |`;
      }),
    ),
  ].join("\n");

  const disturbed = (["browser", "lighthouse"] as const).filter(
    (phase) => result.cpu[phase].other > DISTURBED_CPUS,
  );
  const breakdown = [
    `load event ${ms(median(offer.loadEventMs))} after navigation start`,
    (() => {
      const start = median(offer.plansStartAfterLoadMs);
      return `plans request sent ${ms(Math.abs(start))} ${start < 0 ? "before" : "after"} the load event`;
    })(),
    `answered in ${ms(median(offer.plansDurationMs))}`,
    `rows in the DOM ${ms(median(offer.renderedAfterAnswerMs))} after the answer`,
    `painted ${ms(median(offer.paintedAfterRenderMs))} after that`,
    `offer painted ${ms(median(offer.afterFirstContentfulPaintMs))} after the page's first contentful paint`,
  ];
  const shifts = result.layout
    .filter((layout) => layout.largestShift)
    .map(
      (layout) =>
        `${layout.name}: largest shift ${clsText(layout.largestShift!.value)}, moved: ${list(layout.largestShift!.sources) || "no sources reported"}`,
    );

  return [
    `Last run: ${machine.date}, \`${command}\`.`,
    "",
    `Machine: ${machineLine(machine)}; ${result.chromium}; Lighthouse ${result.lighthouse.version} (benchmarkIndex median ${integer.format(median(result.lighthouse.runs.map((run) => run.benchmarkIndex)))}).`,
    ...(disturbed.length
      ? [
          "",
          `**Disturbed:** other processes on the machine used more than ${DISTURBED_CPUS} CPUs during the ${disturbed.join(" and ")} phase (see CPU below); timings are slower than on a quiet machine.`,
        ]
      : []),
    "",
    table,
    "",
    lhTable,
    "",
    "How it is measured, on the local storefront harness (`test/storefront/harness.ts`: the extension's real Liquid in the Dawn-like theme, `/apps/svc/*` signed and handed in-process to the app's real proxy routes on a throwaway SQLite database, the shop connected to the emulator's sandbox). `SVC_PLANS_CACHE_TTL_SECONDS=0`: every plans request reaches the emulator, the app's cache-miss path. The harness neither compresses nor caches; everything runs on this machine, so there is no network time.",
    "",
    `- JavaScript: \`measureStorefrontJavaScript()\` of \`scripts/check-extension.mjs\`, the CI check's own count (every \`assets/*.js\`, gzip level 9: ${list(js.files.map((file) => `${file.name} ${bytes(file.gzipBytes)}`))}), and the same gzip count over the script bodies the rendered product page references from the extension (${list(js.servedFiles)}). Every Chromium load below fetched ${list([...new Set(offer.extensionScriptsPerLoad)].map(String))} extension scripts, so nothing loads later.`,
    `- Render-blocking: the \`<script>\` tags of the product page with the block and embed on, less those of the same page with both off (${list(result.scripts.added.map((s) => `\`${s.tag}\``)) || "none"}); each must be \`defer\`, \`async\` or \`type=module\`. Inline scripts added: ${result.scripts.inlineInBlocks}. The harness adds each schema's \`javascript\` as Shopify does, \`<script src defer>\` in the head. Lighthouse 13 replaced the render-blocking-resources audit with \`render-blocking-insight\`; the extension's URLs it listed over all runs: ${list(lhExtensionUrls.map((url) => `\`${new URL(url).pathname}\``)) || "none"}.`,
    `- CLS: Chromium driven by playwright-core, a new context per load, a \`PerformanceObserver\` on \`layout-shift\` (buffered; entries with \`hadRecentInput\` left out) installed before the page's scripts, summed until the offer has settled (\`ready\` or \`empty\`; the load event without the extension) and 500 ms more. With plans: Aurora 14 Laptop (two plans); without plans: Linen Tea Towel; the same laptop page with the block and embed off shows the theme's own shifts.`,
    `- Offer visible: the loads of the laptop page at 1280×900 (${offer.loads} counted after 2 warm-up loads). A \`MutationObserver\` installed before the page's scripts sees the offer turn \`data-state="ready"\` with plan rows; visible is ${offer.method}. The figure is that time less the navigation entry's \`loadEventStart\` (negative: before the load event); nearest-rank percentiles. Medians: ${list(breakdown)}.`,
    `- Lighthouse: the \`lighthouse\` package's Node API, performance category only, ${list(result.lighthouse.settings)}. One Debian Chromium per run (\`--headless --no-sandbox --disable-gpu\`, no network beyond the harness, a fresh \`--user-data-dir\`) on the laptop page; with and without the block and embed interleaved, after ${result.lighthouse.warmUpRuns} uncounted warm-up pair(s). Without them, the harness renders no block markup and loads no extension CSS or JS. FCP, LCP and Speed Index are Lighthouse's simulated figures; "Observed" are the same paints in the unthrottled load it simulates from. "Extension scripts" is the \`bootup-time\` audit's total for the extension's files (CPU slowdown included): the median over the runs that listed them, and in how many; the audit lists a file only from 50 ms.`,
    `- CPU: ${cpuLine("browser loads", result.cpu.browser)}; ${cpuLine("Lighthouse", result.cpu.lighthouse)}.`,
    ...result.notes.map((note) => `- ${note}`),
    ...shifts.map((line) => `- ${line}.`),
    "",
    `Offer visible after the load event, per load (ms): ${offer.afterLoadMs.map((v) => v.toFixed(0)).join(", ")}.`,
    "",
    ...result.layout.map(
      (layout) =>
        `CLS per load, ${layout.name}: ${layout.values.map((v) => clsText(v)).join(", ")}.`,
    ),
  ].join("\n");
}
