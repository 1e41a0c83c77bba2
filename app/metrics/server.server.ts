import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AppPrismaClient } from "../db/client.server";
import type { AppEnv } from "../env.server";
import type { Logger } from "../logger.server";
import { startDatabaseGaugeCollector, type DatabaseGaugeCollector } from "./collector.server";
import { enableProcessMetrics, registry, type ProcessType } from "./registry.server";

/*
 * The metrics port (issue 28, decision 047): GET /metrics in Prometheus' text format and GET
 * /healthz ("ok": the process answers), on SVC_METRICS_HOST:SVC_METRICS_PORT, never on the app's
 * port. Started by server/serve.ts (web) and server/worker.ts (worker) when the port is set.
 */

export interface MetricsService {
  port: number;
  /** Refreshes the database gauges now (when this process reads them). */
  refreshDatabaseGauges(): Promise<void>;
  close(): Promise<void>;
}

export interface MetricsOptions {
  env: Pick<AppEnv, "SVC_METRICS_PORT" | "SVC_METRICS_HOST" | "SVC_METRICS_DB_INTERVAL_SECONDS">;
  processType: ProcessType;
  log: Logger;
  /** The database, when this process is the one that reads the gauges from it. */
  db?: AppPrismaClient;
}

/** Serves the metrics when SVC_METRICS_PORT is set; undefined (nothing loaded) when not. */
export async function startMetricsService(
  options: MetricsOptions,
): Promise<MetricsService | undefined> {
  const { env, processType, log } = options;
  if (env.SVC_METRICS_PORT === undefined) return undefined;
  enableProcessMetrics(processType);
  const collector: DatabaseGaugeCollector | undefined = options.db
    ? startDatabaseGaugeCollector({
        db: options.db,
        intervalMs: env.SVC_METRICS_DB_INTERVAL_SECONDS * 1_000,
        log,
      })
    : undefined;
  const server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { Allow: "GET, HEAD" }).end();
    } else if (path === "/healthz") {
      response.writeHead(200, { "Content-Type": "text/plain; charset=utf-8" }).end("ok\n");
    } else if (path === "/metrics") {
      registry.metrics().then(
        (text) => response.writeHead(200, { "Content-Type": registry.contentType }).end(text),
        (error: unknown) => {
          log.error({ err: error }, "Failed to render the metrics");
          response.writeHead(500).end();
        },
      );
    } else {
      response.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found\n");
    }
  });
  await listen(server, env.SVC_METRICS_PORT, env.SVC_METRICS_HOST);
  log.info(
    {
      port: env.SVC_METRICS_PORT,
      host: env.SVC_METRICS_HOST,
      processType,
      databaseGauges: !!collector,
    },
    "Metrics are served on their own port",
  );
  return {
    port: (server.address() as AddressInfo).port,
    refreshDatabaseGauges: () => collector?.refresh() ?? Promise.resolve(),
    close: () =>
      new Promise<void>((resolve) => {
        collector?.stop();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          `SVC_METRICS_PORT: cannot listen on ${host}:${port} (${error.code ?? error.message})`,
        ),
      );
    server.once("error", fail);
    server.listen({ port, host }, () => {
      server.off("error", fail);
      resolve();
    });
  });
}
