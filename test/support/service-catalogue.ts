import type { Catalogue } from "../../emulator/catalogue";

/**
 * The service's side of the protection-item mapping, as a merchant's copied item IDs set it: its
 * plans for laptops are the shop's protection variants, a year more each, at their prices.
 */
export function laptopPlansCatalogue(variants: { id: string; price: string }[]): Catalogue {
  return {
    currency: "eur",
    categories: [
      {
        id: "electronics",
        title_keywords: ["laptop"],
        product_ids: [],
        price_bands: [
          {
            min_price_amount: 0,
            plans: variants.map((variant, index) => ({
              merchant_product_id: variant.id,
              price_amount: Math.round(Number(variant.price) * 100),
              title: { en: `${index + 2}-year protection`, de: `${index + 2} Jahre Schutz` },
              insurance_details_url: `https://example.com/svc/insurance/laptop-${index + 2}-year`,
            })),
          },
        ],
      },
    ],
  };
}
