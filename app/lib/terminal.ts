/** Colour only for a terminal, and never with NO_COLOR set and not empty (https://no-color.org). */
export function wantsColour(env: Record<string, string | undefined>, isTTY: boolean): boolean {
  return isTTY && (env.NO_COLOR === undefined || env.NO_COLOR === "");
}
