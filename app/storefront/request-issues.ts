import type { z } from "zod";

/** One problem with a storefront request, e.g. `{ path: "cart.items[3].quantity", message }`. */
export type RequestIssue = { path: string; message: string };

export type Parsed<T> = { ok: true; value: T } | { ok: false; issues: RequestIssue[] };

/** A zod path as the storefront developer reads it: `cart.items[3].quantity`. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const part of path) {
    if (typeof part === "number") text += `[${part}]`;
    else text += text === "" ? String(part) : `.${String(part)}`;
  }
  return text === "" ? "(body)" : text;
}

export function toRequestIssues(error: z.ZodError): RequestIssue[] {
  return error.issues.map((issue) => ({
    path: formatIssuePath(issue.path),
    message: issue.message,
  }));
}

const LISTED_IN_MESSAGE = 3;

/** "variant_id must be …; price is required (and 2 more)": the first issues in one line. */
export function summarizeIssues(issues: readonly RequestIssue[]): string {
  const listed = issues
    .slice(0, LISTED_IN_MESSAGE)
    .map((issue) => (issue.path === "(body)" ? issue.message : `${issue.path} ${issue.message}`));
  const more = issues.length - listed.length;
  return more > 0 ? `${listed.join("; ")} (and ${more} more)` : listed.join("; ");
}
