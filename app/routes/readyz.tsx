import { json } from "@remix-run/node";
import { checkAppReadiness } from "../server/readiness.server";

// Readiness (decision 048): the database answers and every migration is applied. In production
// server/serve.ts answers /readyz before Express, and 503 from SIGTERM on; this route serves
// `npm run dev`.
export const loader = async () => {
  const readiness = await checkAppReadiness();
  const headers = { "Cache-Control": "no-store" };
  if (readiness.ready) return json({ status: "ready" }, { headers });
  return json({ status: "not ready", reason: readiness.reason }, { status: 503, headers });
};
