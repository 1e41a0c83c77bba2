import type en from "../en/items";
import type { Translation } from "../types";

export default {
  title: "Schutzartikel",
  subtitle: "Die Produkte, die der Schutzdienst als Pläne verkauft",
  actions: {
    create: "Schutzprodukt erstellen",
    copyAll: "Alle kopieren",
  },
  table: {
    heading: "Für Ihren Account Manager",
    description:
      "Geben Sie diese Varianten-IDs (die merchant_product_id des Dienstes) und Kategorien an Ihren Account Manager. „Alle kopieren“ kopiert sie als Tabelle.",
    variantId: "Varianten-ID",
    title: "Titel",
    price: "Preis",
    category: "Kategorie",
    strategy: "Strategie",
    actions: "Aktionen",
    dynamicPrice: "Dynamisch",
    createdByApp: "Von der App erstellt",
    remove: "Entfernen",
    removeLabel: "{title} aus den Schutzartikeln entfernen",
    resourceSingular: "Schutzartikel",
    resourcePlural: "Schutzartikel",
  },
  strategies: {
    one_to_one: "Eins-zu-eins",
    one_to_many: "Eins-zu-viele",
    one_to_all: "Eins-für-alle",
  },
  empty: {
    heading: "Noch keine Schutzartikel",
    body: "Erstellen Sie Ihr Schutzprodukt oder ordnen Sie Produkte zu, die Sie bereits verkaufen.",
  },
  map: {
    heading: "Vorhandene Produkte zuordnen",
    description:
      "Verwenden Sie vorhandene Produkte oder Varianten als Schutzartikel. Wenn Sie einen Artikel später entfernen, bleibt das Produkt in Shopify.",
    strategy: "Strategie",
    strategyHelp: {
      one_to_one: "Ein Artikel je Plan, zu seinem eigenen Preis verkauft.",
      one_to_all:
        "Ein Platzhalterartikel für alle Pläne. Der Dienst zeigt Titel und Preis jedes Plans, Shopify berechnet aber den eigenen Preis des Artikels: nur verwenden, wenn alle Pläne diesen Preis haben, oder mit dem Self-Service-Checkout des Dienstes. Sonst ein Eins-zu-viele-Produkt erstellen.",
    },
    category: "Kategorie (optional)",
    categoryHelp: "Die Produktkategorie, die Sie Ihrem Account Manager zum Testen geben.",
    pickVariants: "Varianten auswählen",
    pickProducts: "Produkte auswählen",
  },
  copy: {
    done: "{count} Artikel kopiert",
    failed: "Kopieren nicht möglich. Markieren Sie die Tabelle und kopieren Sie sie von Hand.",
  },
  results: {
    created: "Schutzprodukt mit {count} Artikeln erstellt",
    publishedNote:
      "Es ist im Vertriebskanal Onlineshop verfügbar, damit Kunden seine Pläne in den Warenkorb legen können. Es bleibt nicht gelistet: in keiner Suche, Kollektion oder Empfehlung.",
    openProduct: "Produkt in Shopify öffnen",
    mapped: "{count} Schutzartikel gespeichert.",
    removed: "Artikel entfernt. Das Produkt ist weiterhin in Shopify.",
    removeNotFound: "Diesen Artikel gibt es nicht mehr. Laden Sie die Seite neu.",
    pickedNotFound:
      "Diese Produkte oder Varianten gibt es in Shopify nicht mehr, daher wurde nichts gespeichert: {ids}",
    shopifyErrorTitle: "Shopify hat nicht geantwortet",
    shopifyError:
      "Es wurde nichts gespeichert. Prüfen Sie Ihre Verbindung und versuchen Sie es in einer Minute erneut.",
    saveFailedTitle: "Die Artikel wurden nicht gespeichert",
    mapSaveFailed:
      "Es wurde nichts gespeichert. Versuchen Sie es erneut; wenn es wieder passiert, wenden Sie sich an den Support.",
  },
  onlineStore: {
    published: "Im Onlineshop",
    notPublished: "Nicht im Onlineshop",
    makeAvailableTitle: "Machen Sie {product} im Kanal Onlineshop verfügbar",
    makeAvailableBody:
      "Bis dahin können Kunden seine Pläne nicht in den Warenkorb legen. Öffnen Sie das Produkt und fügen Sie unter „Veröffentlichung“ den Vertriebskanal Onlineshop hinzu. Es bleibt nicht gelistet: in keiner Suche, Kollektion oder Empfehlung.",
    reasons: {
      not_published: "Es ist nicht im Vertriebskanal Onlineshop.",
      no_online_store:
        "Ihr Shop hat keinen Vertriebskanal Onlineshop, daher konnte die App es nicht veröffentlichen. Fügen Sie zuerst den Kanal Onlineshop hinzu.",
      access_denied:
        "Die App darf noch keine Produkte veröffentlichen. Öffnen Sie die App erneut und bestätigen Sie ihre geänderten Berechtigungen, wenn Shopify danach fragt; bis dahin machen Sie das Produkt selbst verfügbar.",
      user_errors: "Shopify hat die Veröffentlichung abgelehnt: {message}",
      failed: "Shopify hat nicht geantwortet, als die App es veröffentlichen wollte.",
    },
    accessDeniedTitle: "Die App kann den Onlineshop nicht prüfen",
    accessDeniedBody:
      "Sie braucht die Berechtigung, Veröffentlichungen in Vertriebskanälen zu verwalten. Öffnen Sie die App erneut und bestätigen Sie ihre geänderten Berechtigungen, wenn Shopify danach fragt; bis dahin stellen Sie selbst sicher, dass jedes Schutzprodukt im Kanal Onlineshop verfügbar ist.",
    noOnlineStoreTitle: "Ihr Shop hat keinen Vertriebskanal Onlineshop",
    noOnlineStoreBody:
      "Kunden legen Pläne in Ihrem Onlineshop in den Warenkorb. Fügen Sie den Vertriebskanal Onlineshop hinzu und machen Sie dann jedes Schutzprodukt darin verfügbar.",
  },
  errors: {
    titleRequired: "Geben Sie einen Titel ein.",
    titleTooLong: "Verwenden Sie höchstens 255 Zeichen.",
    categoryTooLong: "Verwenden Sie für die Kategorie höchstens 255 Zeichen.",
    pricesRequired: "Geben Sie mindestens einen Preis ein.",
    strategy: "Wählen Sie Eins-zu-eins oder Eins-für-alle.",
    pickSomething: "Wählen Sie mindestens ein Produkt oder eine Variante aus.",
    tooMany: "Wählen Sie höchstens 250 Produkte oder Varianten auf einmal aus.",
    invalidForm:
      "Das Formular war unvollständig. Laden Sie die Seite neu und versuchen Sie es erneut.",
  },
  new: {
    title: "Schutzprodukt erstellen",
    defaultTitle: "Produktschutz",
    explain:
      "Die App erstellt ein nicht gelistetes Produkt mit einer Variante je Planpreis (Eins-zu-viele). Die Varianten brauchen keinen Versand, sind steuerfrei (0 % MwSt.) und ohne Bestandsverfolgung. Das Produkt ist in Suche, Empfehlungen und Sitemaps verborgen und in keiner Kollektion.",
    fields: {
      title: "Titel",
      titleHelp: "Kunden sehen ihn mit dem Planpreis in der Warenkorbzeile.",
      prices: "Planpreise",
      pricesHelp:
        "In der Währung Ihres Shops, durch Kommas getrennt oder einer pro Zeile, zum Beispiel 19.99, 29.99, 59.99.",
      category: "Kategorie (optional)",
      categoryHelp: "Die Produktkategorie, die Sie Ihrem Account Manager zum Testen geben.",
    },
    cancel: "Abbrechen",
    submit: "Produkt erstellen",
    formErrorsTitle: "Shopify hat das Produkt nicht erstellt",
    shopifyErrorTitle: "Shopify hat nicht geantwortet",
    shopifyError:
      "Es wurde nichts erstellt. Prüfen Sie Ihre Verbindung und versuchen Sie es in einer Minute erneut.",
    saveFailedTitle: "Das Produkt wurde erstellt, seine Artikel aber nicht gespeichert",
    saveFailed:
      "Shopify hat das Produkt {productId} erstellt. Ordnen Sie seine Varianten auf der Seite Schutzartikel mit „Produkte auswählen“ zu, oder löschen Sie das Produkt in Shopify und erstellen Sie es erneut.",
    priceIssues: {
      empty: "Geben Sie mindestens einen Preis ein.",
      not_a_price: "„{value}“ ist kein Preis.",
      too_many_decimals: "„{value}“ hat mehr Nachkommastellen als {currency} ({decimals}).",
      not_positive: "„{value}“ muss größer als null sein.",
      duplicate: "{value} steht doppelt in der Liste.",
      too_many: "Geben Sie höchstens {max} Preise ein.",
    },
  },
  errorBoundary: {
    title: "Die Schutzartikel konnten nicht angezeigt werden",
    body: "Laden Sie die Seite neu. Wenn es wieder passiert, prüfen Sie, ob die App noch installiert ist, und melden Sie dem Support die Uhrzeit.",
    newBody:
      "Das Produkt wurde möglicherweise nicht erstellt. Gehen Sie zurück zu den Schutzartikeln und prüfen Sie, ob es aufgeführt ist; wenn nicht, versuchen Sie es erneut. Wenn es wieder passiert, melden Sie dem Support die Uhrzeit.",
  },
} satisfies Translation<typeof en>;
