import type en from "../en/common";
import type { Translation } from "../types";

export default {
  appName: "Produktschutz",
  nav: {
    home: "Start",
    connection: "Verbindung",
    items: "Schutzartikel",
    events: "Ereignisprotokoll",
    settings: "Einstellungen",
  },
  environment: { sandbox: "Sandbox", production: "Live" },
  status: {
    connected: "Verbunden",
    not_connected: "Nicht verbunden",
    key_rejected: "Schlüssel abgelehnt",
    secret_unreadable: "Schlüssel nicht lesbar",
    uninstalled: "Deinstalliert",
  },
  errors: {
    title: "Etwas ist schiefgelaufen",
    retry: "Laden Sie die Seite neu. Wenn es wieder passiert, melden Sie dem Support die Uhrzeit.",
  },
} satisfies Translation<typeof en>;
