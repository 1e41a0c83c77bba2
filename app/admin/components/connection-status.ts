/** The badge tone of each connection status, the same on the home and Connection pages. */
export const CONNECTION_STATUS_TONE = {
  connected: "success",
  key_rejected: "critical",
  secret_unreadable: "critical",
  not_connected: "attention",
  uninstalled: "critical",
} as const;
