import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Page } from "@shopify/polaris";
import { PageErrorBoundary } from "../../admin/components/PageErrorBoundary";
import {
  fulfilmentScopeMissing,
  requestFulfilmentScope,
} from "../../admin/fulfilment-scope.server";
import {
  GRANT_FULFILMENT_SCOPE,
  parseSettingsForm,
  type SettingsActionData,
} from "../../admin/settings-form";
import prisma from "../../db.server";
import { useTranslate } from "../../i18n/react";
import { getShopSettings, saveShopSettings } from "../../models/ShopSettings.server";
import { authenticate } from "../../shopify.server";
import { SettingsForm } from "./SettingsForm";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session, scopes } = await authenticate.admin(request);
  const settings = await getShopSettings(prisma, session.shop);
  // Plan fulfilment needs an optional scope: while it is missing, the page asks for it.
  const fulfilmentScope = settings.autoFulfilPlans && (await fulfilmentScopeMissing(scopes));
  return { settings, fulfilmentScopeMissing: fulfilmentScope };
};

export const action = async ({ request }: ActionFunctionArgs): Promise<SettingsActionData> => {
  const { session, scopes } = await authenticate.admin(request);
  const form = Object.fromEntries(await request.formData());
  if (form.intent === GRANT_FULFILMENT_SCOPE) {
    await requestFulfilmentScope(scopes);
    return { ok: true, notice: "settings.fulfilmentScope.granted" };
  }
  const parsed = parseSettingsForm(form);
  if (!parsed.ok) return parsed.answer;
  const before = await getShopSettings(prisma, session.shop);
  await saveShopSettings(prisma, session.shop, parsed.settings);
  // Turned on: saved first, then Shopify's grant screen when the scope is missing.
  if (parsed.settings.autoFulfilPlans && !before.autoFulfilPlans) {
    await requestFulfilmentScope(scopes);
  }
  return { ok: true, notice: "settings.saved" };
};

export default function SettingsPage() {
  const { settings, fulfilmentScopeMissing } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const t = useTranslate();
  return (
    <Page title={t("settings.title")}>
      <SettingsForm
        settings={settings}
        actionData={actionData}
        fulfilmentScopeMissing={fulfilmentScopeMissing}
      />
    </Page>
  );
}

export function ErrorBoundary() {
  return <PageErrorBoundary titleKey="settings.title" />;
}
