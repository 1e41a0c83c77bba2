import type en from "../en/connection";
import type { Translation } from "../types";

export default {
  title: "Verbindung",
  empty: {
    heading: "Den Produktschutz-Service verbinden",
    body: "Geben Sie unten den Sandbox-Geheimschlüssel aus der Händlerkonsole des Service ein. Testbestellungen gehen dann an die Sandbox; live gehen Sie, sobald die Checkliste erfüllt ist.",
  },
  summary: {
    title: "Status",
    environment: "Umgebung",
    status: "Status",
    apiVersion: "API-Version",
    liveSince: "Live seit {date}",
  },
  banners: {
    keyRejectedTitle: "Der Service hat einen Geheimschlüssel abgelehnt",
    keyRejectedBody:
      "Bestellereignisse sind angehalten (wartend: {count}). Es geht nichts verloren: Sie werden gesendet, sobald unten ein gültiger Schlüssel gespeichert ist.",
    secretUnreadableTitle: "Der gespeicherte Geheimschlüssel ist nicht lesbar",
    secretUnreadableBody:
      "Die App kann den gespeicherten Schlüssel nicht mehr öffnen (sein Verschlüsselungsschlüssel hat sich geändert). Bestellereignisse sind angehalten (wartend: {count}). Es geht nichts verloren: Sie werden gesendet, sobald der Schlüssel unten erneut gespeichert ist.",
    keyMissingTitle: "Kein {keyName}-Geheimschlüssel",
    keyMissingBody:
      "Der Shop meldet an die Umgebung {environment}, hat dafür aber keinen Schlüssel. Bestellereignisse sind angehalten (wartend: {count}). Sie werden gesendet, sobald unten ein gültiger Schlüssel gespeichert ist.",
  },
  keyNames: { sandbox: "Sandbox", production: "Live" },
  keys: {
    sandboxTitle: "Sandbox-Schlüssel",
    liveTitle: "Live-Schlüssel",
    sandboxHelp:
      "Für Testbestellungen. Kopieren Sie sie aus dem Sandbox-Bereich der Händlerkonsole des Service.",
    liveHelp:
      "Für echte Bestellungen nach dem Livegang. Den Live-Publishable-Key zeigt der Service nach den finalen Tests an.",
    secretKey: "Geheimschlüssel",
    secretKeyHelp:
      "Wird vor dem Speichern beim Service geprüft. Er wird verschlüsselt gespeichert; angezeigt werden nur die letzten vier Zeichen.",
    secretKeyReplace: "Neuen Schlüssel eingeben, um den gespeicherten zu ersetzen",
    publishableKey: "Publishable Key",
    publishableKeyHelp:
      "Wird von den Storefront-Skripten verwendet und ist nicht geheim. Leer lassen, um ihn zu entfernen.",
    saved: "Gespeicherter Schlüssel: •••• {last4}",
    verifiedAt: "Vom Service akzeptiert am {date}",
    notVerified: "Noch nicht geprüft: zum Prüfen erneut speichern",
    none: "Kein Schlüssel gespeichert",
    save: "Prüfen und speichern",
    remove: "Schlüssel entfernen",
    removeTitle: "{keyName}-Geheimschlüssel entfernen?",
    removeBody:
      "Der Schlüssel wird aus dieser App gelöscht (nicht beim Service). Meldet der Shop an diese Umgebung, warten Bestellereignisse, bis ein neuer Schlüssel gespeichert ist.",
    verifiedSaved: "Der Service hat den Schlüssel akzeptiert. Er ist gespeichert.",
    publishableSaved: "Der Publishable Key ist gespeichert.",
    removed: "Der Schlüssel wurde entfernt.",
    errors: {
      rejected:
        "Der Service hat diesen Schlüssel für die Umgebung {keyName} abgelehnt. Prüfen Sie, ob Sie den {keyName}-Geheimschlüssel vollständig kopiert haben. Es wurde nichts gespeichert.",
      unverified:
        "Der Service war zum Prüfen des Schlüssels nicht erreichbar, daher wurde nichts gespeichert. Versuchen Sie es in einer Minute erneut.",
      secretKeyRequired: "Geben Sie den Geheimschlüssel ein.",
      secretKeyFormat: "Ein Geheimschlüssel hat mindestens 8 Zeichen und keine Leerzeichen.",
      publishableKeyFormat: "Ein Publishable Key hat höchstens 256 Zeichen und keine Leerzeichen.",
    },
  },
  apiVersion: {
    title: "API-Version",
    help: "Die Version der Service-API, die diese App anfragt. Verwenden Sie v1.1 nur, wenn der Service Sie darum gebeten hat.",
    label: "API-Version",
    current: "v2.0 (aktuell)",
    earliest: "v1.1 (älteste)",
    save: "Version speichern",
    saved: "Die API-Version ist gespeichert.",
    errors: { invalid: "Wählen Sie v2.0 oder v1.1." },
  },
  environment: {
    title: "Umgebung",
    inSandbox:
      "Bestellungen werden an die Sandbox gemeldet. Kunden erhalten noch keinen echten Schutz.",
    inProduction:
      "Bestellungen werden an die Produktion gemeldet. Kunden, die einen Schutzplan kaufen, erhalten echten Schutz.",
    checklistTitle: "Vor dem Livegang",
    ready: "Alle Schritte sind erledigt: Sie können live gehen.",
    notReady: "Erledigen Sie zuerst diese Schritte. Die Startseite erklärt jeden davon.",
    done: "Erledigt",
    toDo: "Offen",
    goLive: "Live gehen",
    backToSandbox: "Zurück zur Sandbox",
    goLiveTitle: "Live gehen?",
    goLiveBody:
      "Neue Bestellungen werden dann mit dem Live-Schlüssel an die Produktion gemeldet, und Kunden, die einen Schutzplan kaufen, erhalten echten Schutz.",
    goLiveConfirm:
      "Ich habe Bestellungen in der Sandbox getestet und möchte jetzt echte Bestellungen melden.",
    backTitle: "Zurück zur Sandbox wechseln?",
    backBody:
      "Neue Bestellungen werden dann nur an die Sandbox gemeldet: Kunden, die einen Schutzplan kaufen, erhalten keinen echten Schutz, bis Sie wieder live gehen. Bereits erfasste Ereignisse behalten ihre Umgebung.",
    backConfirm: "Mir ist bewusst, dass neue Bestellungen die Produktion nicht erreichen.",
    cancel: "Abbrechen",
    wentLive: "Sie sind live: Neue Bestellungen werden an die Produktion gemeldet.",
    backInSandbox: "Zurück in der Sandbox: Neue Bestellungen werden an die Sandbox gemeldet.",
    errors: {
      confirm: "Setzen Sie zur Bestätigung das Häkchen.",
      notReady:
        "Die Go-live-Checkliste ist noch nicht erfüllt, daher bleibt der Shop in der Sandbox.",
      keyRejected:
        "Ein Geheimschlüssel wurde abgelehnt. Speichern Sie vor dem Livegang einen gültigen Schlüssel.",
    },
    steps: {
      sandbox_key: "Sandbox-Schlüssel vom Service akzeptiert",
      protection_items: "Schutzartikel eingerichtet",
      app_embed: "Warenkorbregeln im Theme aktiviert",
      offer_block: "Schutzangebot-Block auf Produktseiten hinzugefügt",
      test_order: "Testbestellung in der Sandbox aufgegeben",
      sandbox_events: "Bestellung, Versand, Erstattung und Stornierung in der Sandbox zugestellt",
      live_key: "Live-Schlüssel vom Service akzeptiert",
    },
  },
  backfill: {
    title: "Frühere Bestellungen melden",
    reportFrom: "Die App meldet die Bestellungen dieses Shops, die seit {date} erstellt wurden.",
    help: "Sie kann auch Bestellungen von davor melden (eine Nachmeldung): Sie liest sie im Hintergrund bei Shopify und erfasst ihre Ereignisse, als wären ihre Webhooks angekommen.",
    scopeNote:
      "Shopify lässt Apps die Bestellungen der letzten {days} Tage lesen; ältere Bestellungen erfordern die Berechtigung read_all_orders, die Shopify auf Antrag gewährt.",
    since: "Bestellungen melden seit",
    sinceHelp: "Ein Tag in UTC, von {earliest} bis heute.",
    sinceHelpAll: "Ein Tag in UTC, bis heute.",
    submit: "Bestellungen seit diesem Datum melden",
    requested:
      "Nachmeldung angefordert. Die App liest die Bestellungen im Hintergrund; diese Seite zeigt den Fortschritt.",
    requestedTitle: "Nachmeldung wartet auf den Start",
    runningTitle: "Nachmeldung läuft",
    progressSince: "Bestellungen, die seit {date} erstellt wurden.",
    progress: "{done} von {total} Bestellungen geprüft, {events} Ereignisse nachgeholt.",
    progressUnknownTotal: "Bisher {done} Bestellungen geprüft, {events} Ereignisse nachgeholt.",
    reading:
      "Bestellungen mit Versand, Erstattung oder Bearbeitung werden einzeln gelesen, im Rahmen des App-Anteils an Shopifys API-Limit: noch {left}.",
    resumes:
      "Nach einem Neustart der App läuft sie von selbst weiter: Sie können diese Seite verlassen.",
    completedTitle: "Nachmeldung abgeschlossen",
    completed:
      "Bestellungen, die seit {date} erstellt wurden: {orders} Bestellungen geprüft, {events} Ereignisse nachgeholt. Beendet am {time}.",
    failedTitle: "Nachmeldung fehlgeschlagen",
    failed:
      "Bestellungen, die seit {date} erstellt wurden: Die Nachmeldung wurde abgebrochen. {detail}",
    tryAgain: "Erneut versuchen",
    errors: {
      tooOld:
        "Wählen Sie den {date} oder später: Shopify lässt die App nur die Bestellungen der letzten {days} Tage lesen.",
      inFuture: "Wählen Sie heute oder einen Tag in der Vergangenheit.",
      running: "Eine Nachmeldung läuft bereits. Warten Sie, bis sie beendet ist.",
      invalidDate: "Geben Sie ein Datum ein, zum Beispiel 2025-01-31.",
      notReconciled:
        "Frühere Bestellungen lassen sich melden, sobald Ihre Schlüssel verbunden sind.",
    },
  },
  errors: {
    invalidForm:
      "Das Formular konnte nicht gelesen werden. Laden Sie die Seite neu und versuchen Sie es erneut.",
    notInstalled: "Die Verbindung dieses Shops fehlt. Öffnen Sie die App erneut aus Shopify.",
  },
} satisfies Translation<typeof en>;
