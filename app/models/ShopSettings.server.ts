import { readOfferOptions, writeOfferOptions, type OfferOptions } from "../offers/offer-options";
import type { AppPrismaClient } from "../db/client.server";

/** The merchant's choices on the admin's Settings page. Every field is safe for a browser. */
export interface ShopSettings {
  reportOrdersWithoutPlan: boolean;
  autoRefundPlans: boolean;
  /** Reduce plan lines when an order edit reduces their product (decision 027). */
  autoEditPlans: boolean;
  /** Off unless the merchant turns it on (decision 025). */
  autoFulfilPlans: boolean;
  /** The buyer's self-service checkout link after the purchase (decision 034). */
  selfServiceLink: boolean;
  offerOptions: OfferOptions;
}

/** The settings of a shop; the schema's defaults for a shop without a connection record. */
export async function getShopSettings(db: AppPrismaClient, shop: string): Promise<ShopSettings> {
  const record = await db.shopConnection.findUnique({
    where: { shop },
    select: {
      reportOrdersWithoutPlan: true,
      autoRefundPlans: true,
      autoEditPlans: true,
      autoFulfilPlans: true,
      selfServiceLink: true,
      offerOptions: true,
    },
  });
  return {
    reportOrdersWithoutPlan: record?.reportOrdersWithoutPlan ?? true,
    autoRefundPlans: record?.autoRefundPlans ?? true,
    autoEditPlans: record?.autoEditPlans ?? true,
    autoFulfilPlans: record?.autoFulfilPlans ?? false,
    selfServiceLink: record?.selfServiceLink ?? true,
    offerOptions: readOfferOptions(record?.offerOptions),
  };
}

/** Saves all settings of one shop at once (the page always sends the whole form). */
export async function saveShopSettings(
  db: AppPrismaClient,
  shop: string,
  settings: ShopSettings,
): Promise<ShopSettings> {
  const data = {
    reportOrdersWithoutPlan: settings.reportOrdersWithoutPlan,
    autoRefundPlans: settings.autoRefundPlans,
    autoEditPlans: settings.autoEditPlans,
    autoFulfilPlans: settings.autoFulfilPlans,
    selfServiceLink: settings.selfServiceLink,
    offerOptions: writeOfferOptions(settings.offerOptions),
  };
  const record = await db.shopConnection.upsert({
    where: { shop },
    create: { shop, ...data },
    update: data,
  });
  return {
    reportOrdersWithoutPlan: record.reportOrdersWithoutPlan,
    autoRefundPlans: record.autoRefundPlans,
    autoEditPlans: record.autoEditPlans,
    autoFulfilPlans: record.autoFulfilPlans,
    selfServiceLink: record.selfServiceLink,
    offerOptions: readOfferOptions(record.offerOptions),
  };
}
