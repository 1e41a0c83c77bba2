import { useNavigation } from "@remix-run/react";
import { useLocale } from "../../i18n/react";
import type { Translate } from "../../i18n/translate";
import type { Environment } from "../../protection/types";

// What the Connection page's cards share: the submitting state of a form, dates, key names.

export function useSubmitting(intent: string, environment?: Environment): boolean {
  const navigation = useNavigation();
  const formData = navigation.formData;
  return (
    navigation.state === "submitting" &&
    formData?.get("intent") === intent &&
    (environment === undefined || formData.get("environment") === environment)
  );
}

export function useDateFormat() {
  const locale = useLocale();
  return (iso: string) =>
    // UTC, so that the server's render and the browser's agree.
    new Intl.DateTimeFormat(locale, {
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      timeZone: "UTC",
      timeZoneName: "short",
    }).format(new Date(iso));
}

export function keyNameOf(t: Translate, environment: Environment) {
  return t(`connection.keyNames.${environment}`);
}
