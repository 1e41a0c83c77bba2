import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Page } from "@shopify/polaris";
import { PageErrorBoundary } from "../../admin/components/PageErrorBoundary";
import { parseSettingsForm, type SettingsActionData } from "../../admin/settings-form";
import prisma from "../../db.server";
import { useTranslate } from "../../i18n/react";
import { getShopSettings, saveShopSettings } from "../../models/ShopSettings.server";
import { authenticate } from "../../shopify.server";
import { SettingsForm } from "./SettingsForm";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return { settings: await getShopSettings(prisma, session.shop) };
};

export const action = async ({ request }: ActionFunctionArgs): Promise<SettingsActionData> => {
  const { session } = await authenticate.admin(request);
  const parsed = parseSettingsForm(Object.fromEntries(await request.formData()));
  if (!parsed.ok) return parsed.answer;
  await saveShopSettings(prisma, session.shop, parsed.settings);
  return { ok: true, notice: "settings.saved" };
};

export default function SettingsPage() {
  const { settings } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const t = useTranslate();
  return (
    <Page title={t("settings.title")}>
      <SettingsForm settings={settings} actionData={actionData} />
    </Page>
  );
}

export function ErrorBoundary() {
  return <PageErrorBoundary titleKey="settings.title" />;
}
