import { existsSync } from "node:fs";
import { register } from "node:module";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { AppPrismaClient } from "../../../app/db/client.server";
import { createOfflineSession } from "../../../test/support/offline-session";
import { accountCpu, postgresCpu, selfCpu, type CpuShares } from "../cpu";
import { BenchmarkError } from "../stats";
import { planSubjects, SHOP, SIZES } from "./seed";

// Every page's loaders, called in-process as Remix calls them, timed round-robin.

const ROUTES = path.resolve(import.meta.dirname, "../../../app/routes");

export type PageOutcome =
  | { status: "measured"; samplesMs: number[]; bytes: number }
  | { status: "not built"; missing: string[] }
  | { status: "error"; message: string };

export interface PageResult {
  key: string;
  label: string;
  loaders: string;
  outcome: PageOutcome;
}

/** `bench`: this process, which runs the loaders; PostgreSQL, which answers them. */
export type CpuUse = CpuShares<"bench" | "postgres">;

/** `import styles from "….css?url"` (app.tsx) is Vite's; outside Vite it is just a string. */
export function stubViteUrlImports() {
  const hooks = `export async function load(url, context, next) {
    if (/\\.css(\\?url)?$/.test(url)) {
      return { format: "module", source: "export default '/assets/styles.css';", shortCircuit: true };
    }
    return next(url, context);
  }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}

type Loader = (args: {
  request: Request;
  params: Record<string, string>;
  context: Record<string, unknown>;
}) => Promise<unknown>;

export interface PageSpec {
  key: string;
  label: string;
  /** Route files under app/routes whose loaders run for this URL, outermost first. */
  files: string[];
  url: string;
  params?: Record<string, string>;
  shop?: string;
  /** What the answer must hold, so a fast wrong answer does not count; "" when fine. */
  check?: (data: unknown[]) => string;
}

async function loaderOf(file: string): Promise<Loader> {
  const module = (await import(path.join(ROUTES, file))) as { loader?: Loader };
  if (!module.loader) throw new BenchmarkError(`app/routes/${file} has no loader`);
  return module.loader;
}

async function callLoaders(
  loaders: Loader[],
  spec: PageSpec,
  sessionToken: (shop: string) => string,
): Promise<{ ms: number; data: unknown[] }> {
  const requests = loaders.map(
    () =>
      new Request(`https://svc-protection.test${spec.url}`, {
        headers: { Authorization: `Bearer ${sessionToken(spec.shop ?? SHOP)}` },
      }),
  );
  const started = performance.now();
  const data = await Promise.all(
    loaders.map(async (loader, index) => {
      try {
        return await loader({ request: requests[index]!, params: spec.params ?? {}, context: {} });
      } catch (thrown) {
        if (thrown instanceof Response) {
          throw new BenchmarkError(`${spec.url} threw a ${thrown.status} response`);
        }
        throw thrown;
      }
    }),
  );
  const ms = performance.now() - started;
  // A loader may answer its data as a Response (app.tsx does, for its cookie): only 2xx is data.
  const refused = data.find((value): value is Response => value instanceof Response && !value.ok);
  if (refused) throw new BenchmarkError(`${spec.url} answered ${refused.status}`);
  return { ms, data };
}

/** The loaders' data as the page receives it (a Response's JSON body). */
async function dataOf(values: unknown[]): Promise<unknown[]> {
  return Promise.all(
    values.map((value) => (value instanceof Response ? value.json() : Promise.resolve(value))),
  );
}

interface EventsData {
  view: string;
  events?: { id: number; status: string; eventType: string; environment: string }[];
  receipts?: { id: string }[];
  olderCursor?: string;
}

const eventsOf = (data: unknown[]) => (data[1] as EventsData).events ?? [];

export async function pageSpecs(db: AppPrismaClient): Promise<PageSpec[]> {
  const { middleId, deadId: deadEventId, orderId: deadOrderId, smallShop } = await planSubjects(db);
  const dead = { id: deadEventId, orderId: deadOrderId };
  await createOfflineSession(db, smallShop, "shpat_bench_small", "read_orders");
  const fullPage = (data: unknown[]) =>
    eventsOf(data).length === 50 ? "" : `${eventsOf(data).length} events instead of 50`;
  const layout = "app.tsx";
  return [
    {
      key: "layout",
      label: "`app.tsx` alone (authenticate.admin + locale; runs beside every page below)",
      files: [layout],
      url: "/app",
    },
    { key: "home", label: "/app (home)", files: [layout, "app._index/route.tsx"], url: "/app" },
    {
      key: "connection",
      label: "/app/connection",
      files: [layout, "app.connection/route.tsx"],
      url: "/app/connection",
    },
    {
      key: "items",
      label: "/app/items",
      files: [layout, "app.items/route.tsx"],
      url: "/app/items",
    },
    {
      key: "events-first",
      label: "/app/events, first page",
      files: [layout, "app.events/route.tsx"],
      url: "/app/events",
      check: fullPage,
    },
    {
      key: "events-filtered",
      label: "/app/events, filtered: status dead (indexed)",
      files: [layout, "app.events/route.tsx"],
      url: "/app/events?status=dead",
      check: (data) =>
        fullPage(data) ||
        (eventsOf(data).every((event) => event.status === "dead") ? "" : "a row is not dead"),
    },
    {
      key: "events-filtered-type",
      label: "/app/events, filtered: type line items cancelled + sandbox",
      files: [layout, "app.events/route.tsx"],
      url: "/app/events?type=order_line_items_cancelled&env=sandbox",
      check: (data) =>
        fullPage(data) ||
        (eventsOf(data).every(
          (event) =>
            event.eventType === "order_line_items_cancelled" && event.environment === "sandbox",
        )
          ? ""
          : "a row does not match the filter"),
    },
    {
      key: "events-older",
      label: `/app/events, older page (before the ${new Intl.NumberFormat("en-US").format(SIZES.events / 2)}th newest event)`,
      files: [layout, "app.events/route.tsx"],
      url: `/app/events?before=${middleId}`,
      check: (data) =>
        fullPage(data) ||
        (eventsOf(data).every((event) => event.id < middleId) ? "" : "a row is not older"),
    },
    {
      key: "events-order",
      label: "/app/events, one order's events (order ID search)",
      files: [layout, "app.events/route.tsx"],
      url: `/app/events?order=${dead.orderId}`,
      check: (data) => (eventsOf(data).some((event) => event.id === dead.id) ? "" : "not found"),
    },
    {
      key: "webhooks-first",
      label: "/app/events?tab=webhooks, first page",
      files: [layout, "app.events/route.tsx"],
      url: "/app/events?tab=webhooks",
      check: (data) =>
        (data[1] as EventsData).receipts?.length === 50 ? "" : "not 50 webhooks on the page",
    },
    {
      key: "events-small-shop",
      label: `/app/events, first page of a small shop (${new Intl.NumberFormat("en-US").format(SIZES.events / (SIZES.noiseEveryNth - 1) / SIZES.noiseShops)} events among the others')`,
      files: [layout, "app.events/route.tsx"],
      url: "/app/events",
      shop: smallShop,
      check: fullPage,
    },
    {
      key: "event-detail",
      label: "/app/events/:id, one dead event with validation errors",
      files: [layout, "app.events/route.tsx", "app.events.$id/route.tsx"],
      url: `/app/events/${dead.id}`,
      params: { id: String(dead.id) },
      check: (data) => {
        const detail = data[2] as { answer?: { validationErrors?: unknown[] } };
        return detail.answer?.validationErrors?.length === 2 ? "" : "no validation errors";
      },
    },
    {
      key: "settings",
      label: "/app/settings",
      files: [layout, "app.settings/route.tsx"],
      url: "/app/settings",
    },
  ];
}

export async function measurePages(
  specs: PageSpec[],
  runs: number,
  warmUp: number,
): Promise<{ pages: PageResult[]; cpu: CpuUse }> {
  const { sessionToken } = await import("../../../test/support/session-token");
  const prepared: { spec: PageSpec; loaders: Loader[]; samples: number[]; bytes: number }[] = [];
  const results = new Map<string, PageResult>();
  for (const spec of specs) {
    const loaders = spec.files.map((file) => `app/routes/${file}`).join(" + ");
    const missing = spec.files.filter((file) => !existsSync(path.join(ROUTES, file)));
    if (missing.length) {
      results.set(spec.key, { ...spec, loaders, outcome: { status: "not built", missing } });
      continue;
    }
    try {
      const modules = await Promise.all(spec.files.map(loaderOf));
      const first = await dataOf((await callLoaders(modules, spec, sessionToken)).data);
      const problem = spec.check?.(first) ?? "";
      if (problem) throw new BenchmarkError(`${spec.url}: ${problem}`);
      const bytes = first.reduce<number>(
        (sum, value) => sum + Buffer.byteLength(JSON.stringify(value)),
        0,
      );
      prepared.push({ spec, loaders: modules, samples: [], bytes });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`  ${spec.label}: ${message}`);
      results.set(spec.key, { ...spec, loaders, outcome: { status: "error", message } });
    }
  }

  // Round-robin over the pages, so a burst of other work on the machine hits them all alike.
  const stopCpu = accountCpu({ bench: selfCpu, postgres: postgresCpu });
  for (let round = 0; round < warmUp + runs; round++) {
    for (const page of prepared) {
      const { ms } = await callLoaders(page.loaders, page.spec, sessionToken);
      if (round >= warmUp) page.samples.push(ms);
    }
  }
  const cpu = stopCpu();
  for (const page of prepared) {
    results.set(page.spec.key, {
      ...page.spec,
      loaders: page.spec.files.map((file) => `app/routes/${file}`).join(" + "),
      outcome: { status: "measured", samplesMs: page.samples, bytes: page.bytes },
    });
  }
  return { pages: specs.map((spec) => results.get(spec.key)!), cpu };
}
