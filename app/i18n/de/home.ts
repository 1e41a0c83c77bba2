import type en from "../en/home";
import type { Translation } from "../types";

export default {
  title: "Produktschutz",
  subtitle: "Einrichtung und Status von {shop}",
  environmentNote: "Zahlen der Umgebung {environment}.",
  connection: {
    heading: "Verbindung",
    environment: "Umgebung",
    apiVersion: "API-Version",
    sandboxKey: "Sandbox-Schlüssel",
    liveKey: "Live-Schlüssel",
    keyNotSet: "nicht hinterlegt",
    manage: "Verbindung verwalten",
    rejected:
      "Der Dienst hat den Schlüssel abgelehnt. Bestellereignisse warten, bis Sie einen neuen Schlüssel speichern.",
    unreadable:
      "Die App kann den gespeicherten Schlüssel nicht mehr lesen. Bestellereignisse warten, bis Sie den Schlüssel erneut speichern.",
  },
  checklist: {
    heading: "Checkliste für den Livegang",
    intro:
      "Die App prüft jeden Schritt selbst: Er ist abgehakt, sobald die App ihn erledigt sieht.",
    progress: "{done} von {total} Schritten erledigt",
    stepDone: "Erledigt",
    stepOpen: "Offen",
    ready: {
      title: "Bereit für den Livegang",
      body: "Jede Ereignisart wurde in der Sandbox zugestellt und Ihr Live-Schlüssel ist geprüft.",
      action: "Live gehen",
    },
    needsLiveKey: {
      title: "Sandbox-Tests abgeschlossen",
      body: "Hinterlegen und prüfen Sie Ihren Live-Schlüssel auf der Seite Verbindung; danach können Sie live gehen.",
      action: "Live-Schlüssel hinterlegen",
    },
    complete: "Einrichtung abgeschlossen: Ihr Shop ist live.",
    showSteps: "Schritte anzeigen",
    hideSteps: "Schritte ausblenden",
    steps: {
      sandbox_key: {
        title: "Sandbox-Schlüssel verbinden",
        body: "Fügen Sie den geheimen Sandbox-Schlüssel aus der Händlerkonsole des Dienstes ein. Die App prüft ihn mit einem Aufruf beim Dienst.",
        done: "Geprüft am {date}.",
        rejected: "Der Dienst hat den Sandbox-Schlüssel abgelehnt. Speichern Sie einen neuen.",
        action: "Verbindung öffnen",
      },
      protection_items: {
        title: "Schutzartikel anlegen oder zuordnen",
        body: "Schutzpläne werden als verborgene Produkte Ihres Shops verkauft. Legen Sie sie mit der App an oder ordnen Sie vorhandene zu.",
        done: "Schutzartikel: {count}.",
        action: "Schutzartikel öffnen",
      },
      app_embed: {
        title: "App-Einbettung aktivieren",
        body: "Schalten Sie im Theme-Editor unter App-Einbettungen „Schutz-Warenkorbregeln“ ein und speichern Sie. Der Schritt ist erledigt, sobald Ihr Shop einen Warenkorb meldet.",
        done: "Ihr Shop hat zuletzt am {date} einen Warenkorb gemeldet.",
        action: "Im Theme-Editor aktivieren",
      },
      offer_block: {
        title: "Angebotsblock auf Produktseiten einfügen",
        body: "Fügen Sie der Produktvorlage den Block „Schutzangebot“ hinzu und speichern Sie. Der Schritt ist erledigt, sobald eine Produktseite Pläne abfragt.",
        done: "Eine Produktseite hat zuletzt am {date} Pläne abgefragt.",
        action: "Im Theme-Editor einfügen",
      },
      test_order: {
        title: "Testbestellung in der Sandbox aufgeben",
        body: "Bestellen Sie in Ihrem Entwicklungsshop ein Produkt mit Schutzplan. Der Schritt ist erledigt, sobald das Ereignis order_placed die Sandbox erreicht.",
        done: "Eine Testbestellung hat die Sandbox erreicht.",
        action: "Ereignisprotokoll öffnen",
      },
      sandbox_events: {
        title: "Alle Bestellereignisse in der Sandbox testen",
        body: "Der Dienst verlangt vor dem Livegang Tests von Bestellung, Versand, Erstattung und Stornierung. Versenden, erstatten und stornieren Sie Testbestellungen.",
        delivered: "zugestellt",
        missing: "noch nicht",
        action: "Ereignisprotokoll öffnen",
        types: {
          order_placed: "Bestellung",
          order_fulfillment_added: "Versand",
          order_refund_added: "Erstattung",
          order_cancelled: "Stornierung",
        },
      },
      live: {
        title: "Live gehen",
        body: "Stellen Sie die Verbindung mit einem geprüften Live-Schlüssel auf Produktion um, sobald alle Schritte oben erledigt sind.",
        done: "Live seit {date}.",
        action: "Verbindung öffnen",
      },
    },
  },
  status: {
    heading: "Status",
    liveHeading: "Live-Status",
    sandboxHint:
      "Dies sind Zahlen aus der Sandbox. Sobald Sie live sind, zeigt die Seite die Zahlen der Produktion.",
    events: {
      heading: "Bestellereignisse",
      last24h: "Letzte 24 Stunden",
      last7d: "Letzte 7 Tage",
      delivered: "Zugestellt",
      failed: "Fehlgeschlagen",
      waiting: "Wartend",
      empty: "Noch keine Ereignisse – geben Sie in Ihrem Entwicklungsshop eine Testbestellung auf.",
      emptyLive: "In den letzten 7 Tagen gab es keine Ereignisse.",
      failedHint:
        "Einige Ereignisse sind fehlgeschlagen. Im Ereignisprotokoll sehen Sie den Grund und können sie erneut senden.",
      viewLog: "Ereignisprotokoll öffnen",
    },
    chart: {
      title: "Bestellereignisse pro Tag, letzte 7 Tage",
      description: "Zugestellte und fehlgeschlagene Bestellereignisse an jedem der letzten 7 Tage.",
      caption:
        "Jeder Balken umfasst 24 Stunden; der letzte endet beim Laden dieser Seite. Datumsangaben in UTC.",
      day: "Tag bis",
      legendDelivered: "Zugestellt",
      legendFailed: "Fehlgeschlagen",
    },
    orders: {
      heading: "Geschützte Bestellungen",
      protectedOrders: "Bestellungen mit Plan",
      attachRate: "Abschlussquote (7 Tage)",
      attachRateDetail: "{withPlan} von {withProtectable} Bestellungen mit schützbarem Produkt",
      attachRateNone: "Noch keine Bestellungen mit schützbarem Produkt.",
      planRevenue: "Umsatz mit Plänen",
      planRevenueNone: "Noch kein Umsatz mit Plänen.",
      empty: "In den letzten 7 Tagen wurden keine Bestellungen gemeldet.",
    },
  },
  error: {
    title: "Die Startseite konnte nicht geladen werden",
    body: "Laden Sie die Seite neu. Bleibt das Problem, prüfen Sie die Verbindung auf der Seite Verbindung und melden Sie dem Support die Uhrzeit.",
    reload: "Neu laden",
    connection: "Verbindung öffnen",
  },
  attention: {
    title: "Bestellungen, die Ihre Aufmerksamkeit erfordern: {count}",
    body: "Die App hat bei diesen Bestellungen nicht von sich aus gehandelt (eine Automatik ist aus, oder die Schutzpläne einer stornierten Bestellung wurden nicht erstattet), oder Shopify hat eine Aktion abgelehnt. Die Seite jeder Bestellung bietet die Aktion als Schaltfläche an.",
    action: "Diese Bestellungen zeigen",
  },
  reconciliation: {
    heading: "Abgleich",
    intro:
      "Shopify stellt nicht jeden Webhook zu. Die App liest deshalb regelmäßig die Bestellungen Ihres Shops bei Shopify und erfasst jedes Bestellereignis, dessen Webhook nie ankam, damit der Schutzdienst es trotzdem erhält.",
    notConnected:
      "Der Abgleich beginnt, sobald Ihre Schlüssel verbunden sind: Dann vergleicht die App die Bestellungen Ihres Shops mit den erfassten Ereignissen.",
    running: "Läuft",
    queued: "Angefordert",
    webhooksMissing: "Webhooks fehlen",
    lastRun: "Letzter Lauf",
    when: "Zeitpunkt",
    trigger: "Ausgelöst von",
    status: "Status",
    ordersChecked: "Geprüfte Bestellungen",
    eventsRecovered: "Nachgeholte Ereignisse",
    pointsUsed: "Verbrauchte API-Punkte",
    result: "Ergebnis: {detail}",
    triggers: {
      schedule: "Zeitplan",
      merchant: "Ihnen",
      cli: "Kommandozeile",
      backfill: "Nachmeldung",
    },
    runStatus: {
      running: "Läuft",
      completed: "Abgeschlossen",
      failed: "Fehlgeschlagen",
    },
    nextRun: "Nächster geplanter Lauf",
    nextRunDue: "Jetzt fällig",
    every: "Alle {minutes} Minuten",
    scheduleOff: "Zeitplan aus: Die App gleicht nur ab, wenn Sie es anfordern.",
    queuedNote: "Ein Lauf ist angefordert: Die App startet ihn in Kürze.",
    runningNote: "Ein Lauf ist im Gange.",
    action: "Jetzt abgleichen",
    done: {
      queued: "Abgleich angefordert",
      already_queued: "Ein Lauf ist bereits angefordert",
      running: "Ein Lauf ist bereits im Gange",
      not_reconciled: "Der Abgleich beginnt, sobald Ihre Schlüssel verbunden sind",
    },
    warning: {
      title: "Shopifys Bestell-Webhooks bleiben immer wieder aus",
      body: "Die letzten {count} Abgleichsläufe fanden jeweils Bestellereignisse, deren Webhook die App nie erreicht hat. Die App hat diese Ereignisse bei Shopify nachgeholt, es ging also nichts verloren, aber sie kamen später als üblich beim Dienst an.",
      where:
        "Wer die App verwaltet, sieht ihre Webhook-Zustellungen im Dev Dashboard von Shopify unter Apps → die App → Monitoring (im Partner Dashboard: Insights → Webhook metrics). Einstellungen → Benachrichtigungen → Webhooks in Ihrem Shopify-Adminbereich zeigt nur die eigenen Webhooks Ihres Shops, nicht die der App.",
    },
  },
} satisfies Translation<typeof en>;
