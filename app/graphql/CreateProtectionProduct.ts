/**
 * Creates the one-to-many protection product in one step (decision 013): synchronous
 * `productSet`, so the product and all its variants exist, or nothing does.
 */
export const CREATE_PROTECTION_PRODUCT_MUTATION = `#graphql
  mutation CreateProtectionProduct($productSet: ProductSetInput!, $synchronous: Boolean!) {
    productSet(synchronous: $synchronous, input: $productSet) {
      product {
        id
        title
        status
        variants(first: 100) {
          nodes {
            id
            title
            price
            taxable
            selectedOptions {
              name
              value
            }
          }
        }
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;

export interface MetafieldInput {
  namespace: string;
  key: string;
  type: string;
  value: string;
}

export interface ProtectionVariantSetInput {
  optionValues: { optionName: string; name: string }[];
  price: string;
  taxable: boolean;
  inventoryPolicy: "CONTINUE" | "DENY";
  inventoryItem: { tracked: boolean; requiresShipping: boolean };
}

export interface CreateProtectionProductVariables {
  synchronous: true;
  productSet: {
    title: string;
    status: "UNLISTED" | "ACTIVE" | "DRAFT";
    productType: string;
    tags: string[];
    metafields: MetafieldInput[];
    productOptions: { name: string; position: number; values: { name: string }[] }[];
    variants: ProtectionVariantSetInput[];
  };
}

export interface ProductSetUserError {
  field: string[] | null;
  message: string;
  code: string | null;
}

export interface CreateProtectionProductData {
  productSet: {
    product: {
      id: string;
      title: string;
      status: string;
      variants: {
        nodes: {
          id: string;
          title: string;
          price: string;
          taxable: boolean;
          selectedOptions: { name: string; value: string }[];
        }[];
      };
    } | null;
    userErrors: ProductSetUserError[];
  } | null;
}
