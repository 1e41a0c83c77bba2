import { useRouteLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import type { Locale } from "./messages";
import { createTranslator, type Translate } from "./translate";

/** The translator of the admin's language, from the `routes/app` loader. */
export function useTranslate(): Translate {
  const data = useRouteLoaderData<{ locale?: Locale }>("routes/app");
  const locale = data?.locale ?? "en";
  return useMemo(() => createTranslator(locale), [locale]);
}

export function useLocale(): Locale {
  return useRouteLoaderData<{ locale?: Locale }>("routes/app")?.locale ?? "en";
}
