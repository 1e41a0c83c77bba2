import { json } from "@remix-run/node";
import prisma from "../db.server";
import { logger } from "../logger.server";

// Liveness and readiness for load balancers: the process answers and the database is reachable.
export const loader = async () => {
  try {
    await prisma.shopConnection.count({ take: 1 });
    return json({ status: "ok" });
  } catch (error) {
    logger.error({ err: error }, "Health check failed: database unreachable");
    return json({ status: "error", detail: "database unreachable" }, { status: 503 });
  }
};
