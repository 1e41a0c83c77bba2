import type en from "../en/settings";
import type { Translation } from "../types";

export default {
  title: "Einstellungen",
  save: "Einstellungen speichern",
  saved: "Einstellungen gespeichert.",
  orders: {
    title: "Bestellereignisse",
    reportOrdersWithoutPlan: "Bestellungen ohne Schutzplan melden",
    reportOrdersWithoutPlanHelp:
      "An: Jede Bestellung wird gemeldet, damit der Service nach dem Kauf Schutz anbieten kann (Self-Service-Checkout-Links). Aus: Nur Bestellungen mit Schutzplan werden gemeldet. Gilt für Bestellungen ab jetzt.",
    selfServiceLink: "Schutz nach dem Kauf anbieten (Self-Service-Link)",
    selfServiceLinkHelp:
      "An: Die Danke-Seite und die Bestellstatusseite zeigen den Link des Service, mit dem Kunden Schutz für Produkte der Bestellung ohne Schutzplan kaufen können. Braucht „Bestellungen ohne Schutzplan melden“: Der Service bietet nur an, was ihm gemeldet wurde. Aus: Kunden sehen keinen Link; Mitarbeitende sehen den Link für den begleiteten Checkout weiterhin auf der Bestellseite.",
    autoRefundPlans: "Schutzplan mit seinem Produkt erstatten und stornieren",
    autoRefundPlansHelp:
      "Erstatten Sie ein geschütztes Produkt, erstattet die App dieselben Einheiten seines Schutzplans in Shopify, wie der Service es verlangt; die Notiz ihrer Erstattung sagt es. Aus: Die App hält fest, welche Erstattung sie vorgenommen hätte, markiert die Bestellung im Ereignisprotokoll und überlässt sie Ihnen, mit einer Schaltfläche für die Erstattung. Stornieren Sie eine Bestellung, ohne ihre Schutzpläne zu erstatten, erstattet die App sie nie von sich aus: Sie markiert die Bestellung, mit einer Schaltfläche für die Erstattung.",
    autoEditPlans: "Schutzpläne verringern, wenn eine Bestellbearbeitung ihr Produkt verringert",
    autoEditPlansHelp:
      "Entfernt oder verringert eine Bestellbearbeitung ein geschütztes Produkt, verringert die App die Position seines Schutzplans in Shopify entsprechend und erstattet die Differenz, wenn die Bearbeitung ein Guthaben ergibt. Aus: Die App hält fest, welche Änderung sie vorgenommen hätte, markiert die Bestellung im Ereignisprotokoll und überlässt sie Ihnen, mit einer Schaltfläche für die Änderung.",
    autoFulfilPlans: "Schutzplan mit seinem Produkt ausführen",
    autoFulfilPlansHelp:
      "Führen Sie ein geschütztes Produkt aus, führt die App dieselben Einheiten seines Schutzplans in Shopify aus, ohne den Kunden zu benachrichtigen. Pläne, die ein Fulfillment-Dienst lagert, bleiben ihm überlassen. Braucht die Berechtigung zur Auftragsausführung, um die Shopify Sie beim Einschalten bittet.",
  },
  fulfilmentScope: {
    title: "Berechtigung zur Auftragsausführung erteilen",
    body: "Um Schutzpläne mit ihren Produkten auszuführen, braucht die App die Berechtigung, Ihre Bestellungen auszuführen (write_merchant_managed_fulfillment_orders). Bis Sie sie erteilen, hält die App fest, welche Ausführungen sie vorgenommen hätte, und überlässt sie Ihnen.",
    grant: "Berechtigung zur Auftragsausführung erteilen",
    granted: "Die Berechtigung zur Auftragsausführung ist erteilt.",
  },
  offer: {
    title: "Schutzangebot auf Produktseiten",
    help: "Wie der Block „Schutzangebot“ die Pläne zeigt. Änderungen erreichen die Storefront innerhalb einer Minute.",
    heading: "Überschrift",
    headingHelp:
      "Wird über den Plänen angezeigt. Leer lassen, um die Überschrift des Blocks zu verwenden. Höchstens {max} Zeichen.",
    showInsuranceLink: "Link zu den Versicherungsdetails anzeigen",
    showInsuranceLinkHelp:
      "Jeder Plan verlinkt auf die Bedingungen des Versicherers auf der Website des Service.",
    layout: "Layout",
    layoutList: "Liste: eine Zeile pro Plan, mit Titel und Preis",
    layoutCompact: "Kompakt: die Pläne in einer Zeile, für schmale Produktspalten",
    errors: {
      headingTooLong: "Die Überschrift ist zu lang.",
      headingInvalid: "Die Überschrift darf keine Zeilenumbrüche oder Steuerzeichen enthalten.",
      layout: "Wählen Sie ein Layout.",
    },
  },
  errors: {
    invalidForm:
      "Das Formular konnte nicht gelesen werden. Laden Sie die Seite neu und versuchen Sie es erneut.",
  },
} satisfies Translation<typeof en>;
