import { nextRetryDelayMs, parseLinkAnswer, type LinkAnswer } from "./link-state";

/**
 * One GET of a buyer route. Every failure (no network, a refused CORS request, a body that is
 * not JSON, a 4xx or 5xx) comes back as an `error` answer: the caller renders nothing for it.
 */
export async function fetchLinkAnswer(
  url: string,
  token: string,
  signal: AbortSignal,
): Promise<LinkAnswer> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { Authorization: `Bearer ${token}` }, signal });
  } catch (error) {
    return { status: "error", reason: `network: ${String(error)}` };
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return { status: "error", reason: `HTTP ${response.status} without a JSON body` };
  }
  return parseLinkAnswer(response.status, body);
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Asks until the answer is not `not_yet`, waiting as each `not_yet` says, within the retry
 * budget (link-state.ts). Gives back the last answer: still `not_yet` when the budget ran out.
 * `ask` is called for every attempt, so a fresh session token is fetched each time.
 */
export async function askUntilSettled(
  ask: (signal: AbortSignal) => Promise<LinkAnswer>,
  signal: AbortSignal,
): Promise<LinkAnswer> {
  const started = Date.now();
  for (let retries = 0; ; retries++) {
    const answer = await ask(signal);
    if (answer.status !== "not_yet" || signal.aborted) return answer;
    const delay = nextRetryDelayMs(answer.retryAfterMs, retries, Date.now() - started);
    if (delay === null) return answer;
    await sleep(delay, signal);
    if (signal.aborted) return answer;
  }
}
