import { useNavigation } from "@remix-run/react";
import { formatDateTime } from "../../admin/dashboard";
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
  return (iso: string) => formatDateTime(iso, locale);
}

export function keyNameOf(t: Translate, environment: Environment) {
  return t(`connection.keyNames.${environment}`);
}
