// English strings shared by every admin page: navigation, status words, errors.
export default {
  appName: "Product protection",
  nav: {
    home: "Home",
    connection: "Connection",
    items: "Protection items",
    events: "Event log",
    settings: "Settings",
  },
  environment: { sandbox: "Sandbox", production: "Live" },
  status: {
    connected: "Connected",
    not_connected: "Not connected",
    key_rejected: "Key rejected",
    secret_unreadable: "Key unreadable",
    uninstalled: "Uninstalled",
  },
  errors: {
    title: "Something went wrong",
    retry: "Reload the page. If it keeps happening, contact support with the time it happened.",
  },
} as const;
