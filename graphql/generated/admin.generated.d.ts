/* eslint-disable eslint-comments/disable-enable-pair */
/* eslint-disable eslint-comments/no-unlimited-disable */
/* eslint-disable */
import type * as AdminTypes from './admin.types.js';

export type BackfillOperationQueryVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
}>;


export type BackfillOperationQuery = { node?: AdminTypes.Maybe<Pick<AdminTypes.BulkOperation, 'id' | 'status' | 'errorCode' | 'objectCount' | 'rootObjectCount' | 'url' | 'partialDataUrl'>> };

export type BeginPlanEditMutationVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
}>;


export type BeginPlanEditMutation = { orderEditBegin?: AdminTypes.Maybe<{ calculatedOrder?: AdminTypes.Maybe<(
      Pick<AdminTypes.CalculatedOrder, 'id'>
      & { lineItems: { nodes: Array<(
          Pick<AdminTypes.CalculatedLineItem, 'id' | 'quantity'>
          & { customAttributes: Array<Pick<AdminTypes.Attribute, 'key' | 'value'>> }
        )> } }
    )>, userErrors: Array<Pick<AdminTypes.UserError, 'field' | 'message'>> }> };

export type CommitPlanEditMutationVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
  staffNote: AdminTypes.Scalars['String']['input'];
}>;


export type CommitPlanEditMutation = { orderEditCommit?: AdminTypes.Maybe<{ order?: AdminTypes.Maybe<(
      Pick<AdminTypes.Order, 'id' | 'displayFinancialStatus'>
      & { totalOutstandingSet: { presentmentMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> } }
    )>, userErrors: Array<Pick<AdminTypes.UserError, 'field' | 'message'>> }> };

export type CreateProtectionProductMutationVariables = AdminTypes.Exact<{
  productSet: AdminTypes.ProductSetInput;
  synchronous: AdminTypes.Scalars['Boolean']['input'];
}>;


export type CreateProtectionProductMutation = { productSet?: AdminTypes.Maybe<{ product?: AdminTypes.Maybe<(
      Pick<AdminTypes.Product, 'id' | 'title' | 'status'>
      & { variants: { nodes: Array<(
          Pick<AdminTypes.ProductVariant, 'id' | 'title' | 'price' | 'taxable'>
          & { selectedOptions: Array<Pick<AdminTypes.SelectedOption, 'name' | 'value'>> }
        )> } }
    )>, userErrors: Array<Pick<AdminTypes.ProductSetUserError, 'field' | 'message' | 'code'>> }> };

export type FulfilPlanLinesMutationVariables = AdminTypes.Exact<{
  fulfillment: AdminTypes.FulfillmentInput;
}>;


export type FulfilPlanLinesMutation = { fulfillmentCreate?: AdminTypes.Maybe<{ fulfillment?: AdminTypes.Maybe<Pick<AdminTypes.Fulfillment, 'id' | 'status'>>, userErrors: Array<Pick<AdminTypes.UserError, 'field' | 'message'>> }> };

export type OnlineStorePublicationQueryVariables = AdminTypes.Exact<{ [key: string]: never; }>;


export type OnlineStorePublicationQuery = { publications: { nodes: Array<(
      Pick<AdminTypes.Publication, 'id'>
      & { catalog?: AdminTypes.Maybe<Pick<AdminTypes.AppCatalog, 'title'> | Pick<AdminTypes.CompanyLocationCatalog, 'title'> | Pick<AdminTypes.MarketCatalog, 'title'>> }
    )> } };

export type OrderForPlanEditQueryVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
}>;


export type OrderForPlanEditQuery = { order?: AdminTypes.Maybe<(
    Pick<AdminTypes.Order, 'id' | 'name' | 'cancelledAt' | 'currencyCode' | 'presentmentCurrencyCode' | 'displayFinancialStatus'>
    & { totalOutstandingSet: { presentmentMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> }, lineItems: { nodes: Array<(
        Pick<AdminTypes.LineItem, 'id' | 'currentQuantity' | 'refundableQuantity' | 'unfulfilledQuantity'>
        & { discountedUnitPriceSet: { presentmentMoney: Pick<AdminTypes.MoneyV2, 'amount'> }, customAttributes: Array<Pick<AdminTypes.Attribute, 'key' | 'value'>>, variant?: AdminTypes.Maybe<Pick<AdminTypes.ProductVariant, 'id'>> }
      )> }, transactions: Array<Pick<AdminTypes.OrderTransaction, 'id' | 'kind' | 'status' | 'gateway'>>, refunds: Array<(
      Pick<AdminTypes.Refund, 'id' | 'note'>
      & { totalRefundedSet: { presentmentMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> } }
    )> }
  )> };

export type OrderForPlanFulfilmentQueryVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
}>;


export type OrderForPlanFulfilmentQuery = { order?: AdminTypes.Maybe<(
    Pick<AdminTypes.Order, 'id' | 'name'>
    & { lineItems: { nodes: Array<(
        Pick<AdminTypes.LineItem, 'id'>
        & { customAttributes: Array<Pick<AdminTypes.Attribute, 'key' | 'value'>>, variant?: AdminTypes.Maybe<Pick<AdminTypes.ProductVariant, 'id'>> }
      )> }, fulfillments: Array<(
      Pick<AdminTypes.Fulfillment, 'id' | 'status'>
      & { fulfillmentLineItems: { nodes: Array<(
          Pick<AdminTypes.FulfillmentLineItem, 'quantity'>
          & { lineItem: Pick<AdminTypes.LineItem, 'id'> }
        )> } }
    )>, fulfillmentOrders: { nodes: Array<(
        Pick<AdminTypes.FulfillmentOrder, 'id' | 'status'>
        & { supportedActions: Array<Pick<AdminTypes.FulfillmentOrderSupportedAction, 'action'>>, assignedLocation: Pick<AdminTypes.FulfillmentOrderAssignedLocation, 'name'>, lineItems: { nodes: Array<(
            Pick<AdminTypes.FulfillmentOrderLineItem, 'id' | 'remainingQuantity'>
            & { lineItem: Pick<AdminTypes.LineItem, 'id'> }
          )> } }
      )> } }
  )> };

export type OrderForPlanRefundQueryVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
}>;


export type OrderForPlanRefundQuery = { order?: AdminTypes.Maybe<(
    Pick<AdminTypes.Order, 'id' | 'name' | 'cancelledAt' | 'currencyCode' | 'presentmentCurrencyCode'>
    & { lineItems: { nodes: Array<(
        Pick<AdminTypes.LineItem, 'id' | 'refundableQuantity' | 'unfulfilledQuantity'>
        & { customAttributes: Array<Pick<AdminTypes.Attribute, 'key' | 'value'>>, variant?: AdminTypes.Maybe<Pick<AdminTypes.ProductVariant, 'id'>> }
      )> }, refunds: Array<(
      Pick<AdminTypes.Refund, 'id' | 'note'>
      & { totalRefundedSet: { presentmentMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> }, refundLineItems: { nodes: Array<(
          Pick<AdminTypes.RefundLineItem, 'quantity'>
          & { lineItem: Pick<AdminTypes.LineItem, 'id'> }
        )> } }
    )> }
  )> };

export type OrderPlacedAtQueryVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
}>;


export type OrderPlacedAtQuery = { order?: AdminTypes.Maybe<Pick<AdminTypes.Order, 'id' | 'createdAt'>> };

export type ProductVariantOwnerQueryVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
}>;


export type ProductVariantOwnerQuery = { productVariant?: AdminTypes.Maybe<(
    Pick<AdminTypes.ProductVariant, 'id'>
    & { product: Pick<AdminTypes.Product, 'id'> }
  )> };

export type ProtectionItemCandidatesQueryVariables = AdminTypes.Exact<{
  ids: Array<AdminTypes.Scalars['ID']['input']> | AdminTypes.Scalars['ID']['input'];
}>;


export type ProtectionItemCandidatesQuery = { shop: Pick<AdminTypes.Shop, 'currencyCode'>, nodes: Array<AdminTypes.Maybe<{ __typename: 'AbandonedCheckout' | 'AbandonedCheckoutLineItem' | 'Abandonment' | 'AddAllProductsOperation' | 'AdditionalFee' | 'AnalyticsAnnotation' | 'AnalyticsTarget' | 'App' | 'AppCatalog' | 'AppCredit' | 'AppInstallation' | 'AppPurchaseOneTime' | 'AppRevenueAttributionRecord' | 'AppSubscription' | 'AppUsageRecord' | 'Article' | 'BasicEvent' | 'Blog' | 'BulkOperation' | 'BusinessEntity' } | { __typename: 'CalculatedOrder' | 'CartTransform' | 'CashDrawer' | 'CashManagementCustomReasonCode' | 'CashManagementDefaultReasonCode' | 'CashManagementSystemReasonCode' | 'CashTrackingAdjustment' | 'CashTrackingSession' | 'CatalogCsvOperation' | 'Channel' | 'ChannelDefinition' | 'ChannelInformation' | 'CheckoutAndAccountsConfiguration' | 'CheckoutAndAccountsConfigurationOverride' | 'CheckoutProfile' | 'Collection' | 'CollectionConditionsSource' | 'CollectionSubCollectionsSource' | 'Comment' | 'CommentEvent' } | { __typename: 'Company' | 'CompanyAddress' | 'CompanyContact' | 'CompanyContactRole' | 'CompanyContactRoleAssignment' | 'CompanyLocation' | 'CompanyLocationCatalog' | 'CompanyLocationStaffMemberAssignment' | 'ConsentPolicy' | 'CurrencyExchangeAdjustment' | 'Customer' | 'CustomerAccountAppExtensionPage' | 'CustomerAccountNativePage' | 'CustomerPaymentMethod' | 'CustomerSegmentMembersQuery' | 'CustomerVisit' | 'DeliveryCarrierService' | 'DeliveryCondition' | 'DeliveryCountry' | 'DeliveryCustomization' } | { __typename: 'DeliveryLocationGroup' | 'DeliveryMethod' | 'DeliveryMethodDefinition' | 'DeliveryParticipant' | 'DeliveryProfile' | 'DeliveryProfileItem' | 'DeliveryPromiseParticipant' | 'DeliveryPromiseProvider' | 'DeliveryProvince' | 'DeliveryRateDefinition' | 'DeliveryZone' | 'DiscountAutomaticBxgy' | 'DiscountAutomaticNode' | 'DiscountCodeNode' | 'DiscountNode' | 'DiscountRedeemCodeBulkCreation' | 'Domain' | 'DraftOrder' | 'DraftOrderLineItem' | 'DraftOrderTag' } | { __typename: 'Duty' | 'ExchangeLineItem' | 'ExternalVideo' | 'Fulfillment' | 'FulfillmentConstraintRule' | 'FulfillmentEvent' | 'FulfillmentHold' | 'FulfillmentLineItem' | 'FulfillmentOrder' | 'FulfillmentOrderDestination' | 'FulfillmentOrderLineItem' | 'FulfillmentOrderMerchantRequest' | 'GenericFile' | 'GiftCard' | 'GiftCardCashOutTransaction' | 'GiftCardCreditTransaction' | 'GiftCardDebitTransaction' | 'IdentityProviderSubject' | 'InventoryAdjustmentGroup' | 'InventoryItem' } | { __typename: 'InventoryItemMeasurement' | 'InventoryLevel' | 'InventoryQuantity' | 'InventoryShipment' | 'InventoryShipmentLineItem' | 'InventoryTransfer' | 'InventoryTransferLineItem' | 'LineItem' | 'LineItemGroup' | 'Location' | 'MailingAddress' | 'Market' | 'MarketCatalog' | 'MarketRegionCountry' | 'MarketRegionSubdivision' | 'MarketWebPresence' | 'MarketingActivity' | 'MarketingEvent' | 'MediaImage' | 'Menu' } | { __typename: 'Metafield' | 'MetafieldDefinition' | 'Metaobject' | 'MetaobjectDefinition' | 'Model3d' | 'OnlineStoreTheme' | 'Order' | 'OrderAdjustment' | 'OrderAttributionDefinition' | 'OrderCancelJobResult' | 'OrderCreateMandatePaymentJobResult' | 'OrderDisputeSummary' | 'OrderEditSession' | 'OrderTransaction' | 'Page' | 'PaymentCustomization' | 'PaymentMandate' | 'PaymentSchedule' | 'PaymentTerms' | 'PaymentTermsTemplate' } | { __typename: 'PointOfSaleDevice' | 'PointOfSaleDevicePaymentSession' | 'PriceList' | 'ProductBundleOperation' | 'ProductDeleteOperation' | 'ProductDuplicateOperation' | 'ProductFeed' | 'ProductOption' | 'ProductOptionValue' | 'ProductSetOperation' | 'ProductTaxonomyNode' | 'ProductVariantComponent' | 'Publication' | 'PublicationResourceOperation' | 'QuantityPriceBreak' | 'Refund' | 'RefundShippingLine' | 'Return' | 'ReturnLineItem' | 'ReturnReasonDefinition' } | { __typename: 'ReturnableFulfillment' | 'ReverseDelivery' | 'ReverseDeliveryLineItem' | 'ReverseFulfillmentOrder' | 'ReverseFulfillmentOrderDisposition' | 'ReverseFulfillmentOrderLineItem' | 'SaleAdditionalFee' | 'SavedSearch' | 'ScriptTag' | 'Segment' | 'SellingPlan' | 'SellingPlanGroup' | 'ServerPixel' | 'ShippingLabel' | 'ShippingLabelPurchaseResult' | 'Shop' | 'ShopAddress' | 'ShopPolicy' | 'ShopifyPaymentsAccount' | 'ShopifyPaymentsBalanceTransaction' } | { __typename: 'ShopifyPaymentsBankAccount' | 'ShopifyPaymentsDispute' | 'ShopifyPaymentsDisputeEvidence' | 'ShopifyPaymentsDisputeFileUpload' | 'ShopifyPaymentsDisputeFulfillment' | 'ShopifyPaymentsPayout' | 'StaffMember' | 'StandardMetafieldDefinitionTemplate' | 'StoreCreditAccount' | 'StoreCreditAccountCreditTransaction' | 'StoreCreditAccountDebitRevertTransaction' | 'StoreCreditAccountDebitTransaction' | 'StorefrontAccessToken' | 'SubscriptionBillingAttempt' | 'SubscriptionContract' | 'SubscriptionDraft' | 'TaxonomyAttribute' | 'TaxonomyCategory' | 'TaxonomyChoiceListAttribute' | 'TaxonomyMeasurementAttribute' } | { __typename: 'TaxonomyValue' | 'TenderTransaction' | 'TransactionFee' | 'UnverifiedReturnLineItem' | 'UrlRedirect' | 'UrlRedirectImport' | 'Validation' | 'Video' | 'WebPixel' | 'WebhookSubscription' } | (
    { __typename: 'Product' }
    & Pick<AdminTypes.Product, 'id' | 'title'>
    & { variants: { nodes: Array<Pick<AdminTypes.ProductVariant, 'id' | 'title' | 'price'>> } }
  ) | (
    { __typename: 'ProductVariant' }
    & Pick<AdminTypes.ProductVariant, 'id' | 'title' | 'price'>
    & { product: Pick<AdminTypes.Product, 'id' | 'title'> }
  )>> };

export type ProtectionProductsPublishedQueryVariables = AdminTypes.Exact<{
  ids: Array<AdminTypes.Scalars['ID']['input']> | AdminTypes.Scalars['ID']['input'];
  publicationId: AdminTypes.Scalars['ID']['input'];
}>;


export type ProtectionProductsPublishedQuery = { nodes: Array<AdminTypes.Maybe<{ __typename: 'AbandonedCheckout' | 'AbandonedCheckoutLineItem' | 'Abandonment' | 'AddAllProductsOperation' | 'AdditionalFee' | 'AnalyticsAnnotation' | 'AnalyticsTarget' | 'App' | 'AppCatalog' | 'AppCredit' | 'AppInstallation' | 'AppPurchaseOneTime' | 'AppRevenueAttributionRecord' | 'AppSubscription' | 'AppUsageRecord' | 'Article' | 'BasicEvent' | 'Blog' | 'BulkOperation' | 'BusinessEntity' } | { __typename: 'CalculatedOrder' | 'CartTransform' | 'CashDrawer' | 'CashManagementCustomReasonCode' | 'CashManagementDefaultReasonCode' | 'CashManagementSystemReasonCode' | 'CashTrackingAdjustment' | 'CashTrackingSession' | 'CatalogCsvOperation' | 'Channel' | 'ChannelDefinition' | 'ChannelInformation' | 'CheckoutAndAccountsConfiguration' | 'CheckoutAndAccountsConfigurationOverride' | 'CheckoutProfile' | 'Collection' | 'CollectionConditionsSource' | 'CollectionSubCollectionsSource' | 'Comment' | 'CommentEvent' } | { __typename: 'Company' | 'CompanyAddress' | 'CompanyContact' | 'CompanyContactRole' | 'CompanyContactRoleAssignment' | 'CompanyLocation' | 'CompanyLocationCatalog' | 'CompanyLocationStaffMemberAssignment' | 'ConsentPolicy' | 'CurrencyExchangeAdjustment' | 'Customer' | 'CustomerAccountAppExtensionPage' | 'CustomerAccountNativePage' | 'CustomerPaymentMethod' | 'CustomerSegmentMembersQuery' | 'CustomerVisit' | 'DeliveryCarrierService' | 'DeliveryCondition' | 'DeliveryCountry' | 'DeliveryCustomization' } | { __typename: 'DeliveryLocationGroup' | 'DeliveryMethod' | 'DeliveryMethodDefinition' | 'DeliveryParticipant' | 'DeliveryProfile' | 'DeliveryProfileItem' | 'DeliveryPromiseParticipant' | 'DeliveryPromiseProvider' | 'DeliveryProvince' | 'DeliveryRateDefinition' | 'DeliveryZone' | 'DiscountAutomaticBxgy' | 'DiscountAutomaticNode' | 'DiscountCodeNode' | 'DiscountNode' | 'DiscountRedeemCodeBulkCreation' | 'Domain' | 'DraftOrder' | 'DraftOrderLineItem' | 'DraftOrderTag' } | { __typename: 'Duty' | 'ExchangeLineItem' | 'ExternalVideo' | 'Fulfillment' | 'FulfillmentConstraintRule' | 'FulfillmentEvent' | 'FulfillmentHold' | 'FulfillmentLineItem' | 'FulfillmentOrder' | 'FulfillmentOrderDestination' | 'FulfillmentOrderLineItem' | 'FulfillmentOrderMerchantRequest' | 'GenericFile' | 'GiftCard' | 'GiftCardCashOutTransaction' | 'GiftCardCreditTransaction' | 'GiftCardDebitTransaction' | 'IdentityProviderSubject' | 'InventoryAdjustmentGroup' | 'InventoryItem' } | { __typename: 'InventoryItemMeasurement' | 'InventoryLevel' | 'InventoryQuantity' | 'InventoryShipment' | 'InventoryShipmentLineItem' | 'InventoryTransfer' | 'InventoryTransferLineItem' | 'LineItem' | 'LineItemGroup' | 'Location' | 'MailingAddress' | 'Market' | 'MarketCatalog' | 'MarketRegionCountry' | 'MarketRegionSubdivision' | 'MarketWebPresence' | 'MarketingActivity' | 'MarketingEvent' | 'MediaImage' | 'Menu' } | { __typename: 'Metafield' | 'MetafieldDefinition' | 'Metaobject' | 'MetaobjectDefinition' | 'Model3d' | 'OnlineStoreTheme' | 'Order' | 'OrderAdjustment' | 'OrderAttributionDefinition' | 'OrderCancelJobResult' | 'OrderCreateMandatePaymentJobResult' | 'OrderDisputeSummary' | 'OrderEditSession' | 'OrderTransaction' | 'Page' | 'PaymentCustomization' | 'PaymentMandate' | 'PaymentSchedule' | 'PaymentTerms' | 'PaymentTermsTemplate' } | { __typename: 'PointOfSaleDevice' | 'PointOfSaleDevicePaymentSession' | 'PriceList' | 'ProductBundleOperation' | 'ProductDeleteOperation' | 'ProductDuplicateOperation' | 'ProductFeed' | 'ProductOption' | 'ProductOptionValue' | 'ProductSetOperation' | 'ProductTaxonomyNode' | 'ProductVariant' | 'ProductVariantComponent' | 'Publication' | 'PublicationResourceOperation' | 'QuantityPriceBreak' | 'Refund' | 'RefundShippingLine' | 'Return' | 'ReturnLineItem' } | { __typename: 'ReturnReasonDefinition' | 'ReturnableFulfillment' | 'ReverseDelivery' | 'ReverseDeliveryLineItem' | 'ReverseFulfillmentOrder' | 'ReverseFulfillmentOrderDisposition' | 'ReverseFulfillmentOrderLineItem' | 'SaleAdditionalFee' | 'SavedSearch' | 'ScriptTag' | 'Segment' | 'SellingPlan' | 'SellingPlanGroup' | 'ServerPixel' | 'ShippingLabel' | 'ShippingLabelPurchaseResult' | 'Shop' | 'ShopAddress' | 'ShopPolicy' | 'ShopifyPaymentsAccount' } | { __typename: 'ShopifyPaymentsBalanceTransaction' | 'ShopifyPaymentsBankAccount' | 'ShopifyPaymentsDispute' | 'ShopifyPaymentsDisputeEvidence' | 'ShopifyPaymentsDisputeFileUpload' | 'ShopifyPaymentsDisputeFulfillment' | 'ShopifyPaymentsPayout' | 'StaffMember' | 'StandardMetafieldDefinitionTemplate' | 'StoreCreditAccount' | 'StoreCreditAccountCreditTransaction' | 'StoreCreditAccountDebitRevertTransaction' | 'StoreCreditAccountDebitTransaction' | 'StorefrontAccessToken' | 'SubscriptionBillingAttempt' | 'SubscriptionContract' | 'SubscriptionDraft' | 'TaxonomyAttribute' | 'TaxonomyCategory' | 'TaxonomyChoiceListAttribute' } | { __typename: 'TaxonomyMeasurementAttribute' | 'TaxonomyValue' | 'TenderTransaction' | 'TransactionFee' | 'UnverifiedReturnLineItem' | 'UrlRedirect' | 'UrlRedirectImport' | 'Validation' | 'Video' | 'WebPixel' | 'WebhookSubscription' } | (
    { __typename: 'Product' }
    & Pick<AdminTypes.Product, 'id' | 'title' | 'publishedOnPublication'>
  )>> };

export type PublishProtectionProductMutationVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
  input: Array<AdminTypes.PublicationInput> | AdminTypes.PublicationInput;
}>;


export type PublishProtectionProductMutation = { publishablePublish?: AdminTypes.Maybe<{ userErrors: Array<Pick<AdminTypes.UserError, 'field' | 'message'>> }> };

export type ReconcileOrderQueryVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
}>;


export type ReconcileOrderQuery = { order?: AdminTypes.Maybe<(
    Pick<AdminTypes.Order, 'id' | 'name' | 'email' | 'createdAt' | 'processedAt' | 'updatedAt' | 'cancelledAt' | 'currencyCode' | 'cartToken'>
    & { customAttributes: Array<Pick<AdminTypes.Attribute, 'key' | 'value'>>, billingAddress?: AdminTypes.Maybe<Pick<AdminTypes.MailingAddress, 'firstName' | 'lastName' | 'address1' | 'address2' | 'city' | 'zip' | 'countryCodeV2'>>, shippingAddress?: AdminTypes.Maybe<Pick<AdminTypes.MailingAddress, 'firstName' | 'lastName' | 'address1' | 'address2' | 'city' | 'zip' | 'countryCodeV2'>>, lineItems: { pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage'>, nodes: Array<(
        Pick<AdminTypes.LineItem, 'id' | 'quantity' | 'title' | 'vendor'>
        & { customAttributes: Array<Pick<AdminTypes.Attribute, 'key' | 'value'>>, originalUnitPriceSet: { shopMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> }, variant?: AdminTypes.Maybe<Pick<AdminTypes.ProductVariant, 'id'>> }
      )> }, fulfillments: Array<(
      Pick<AdminTypes.Fulfillment, 'id' | 'status' | 'createdAt'>
      & { fulfillmentLineItems: { nodes: Array<(
          Pick<AdminTypes.FulfillmentLineItem, 'quantity'>
          & { lineItem: Pick<AdminTypes.LineItem, 'id'> }
        )> } }
    )>, refunds: Array<(
      Pick<AdminTypes.Refund, 'id' | 'note' | 'createdAt' | 'processedAt'>
      & { refundLineItems: { nodes: Array<(
          Pick<AdminTypes.RefundLineItem, 'quantity' | 'restockType'>
          & { lineItem: Pick<AdminTypes.LineItem, 'id'> }
        )> } }
    )>, agreements: { nodes: Array<(
        Pick<AdminTypes.OrderAgreement, 'id' | 'happenedAt' | 'reason'>
        & { sales: { nodes: Array<Pick<AdminTypes.AdditionalFeeSale, 'actionType' | 'quantity'> | Pick<AdminTypes.AdjustmentSale, 'actionType' | 'quantity'> | Pick<AdminTypes.DutySale, 'actionType' | 'quantity'> | Pick<AdminTypes.FeeSale, 'actionType' | 'quantity'> | Pick<AdminTypes.GiftCardSale, 'actionType' | 'quantity'> | (
            Pick<AdminTypes.ProductSale, 'actionType' | 'quantity'>
            & { lineItem: Pick<AdminTypes.LineItem, 'id'> }
          ) | Pick<AdminTypes.ShippingLineSale, 'actionType' | 'quantity'> | Pick<AdminTypes.TipSale, 'actionType' | 'quantity'> | Pick<AdminTypes.UnknownSale, 'actionType' | 'quantity'>> } }
      ) | (
        Pick<AdminTypes.OrderEditAgreement, 'id' | 'happenedAt' | 'reason'>
        & { sales: { nodes: Array<Pick<AdminTypes.AdditionalFeeSale, 'actionType' | 'quantity'> | Pick<AdminTypes.AdjustmentSale, 'actionType' | 'quantity'> | Pick<AdminTypes.DutySale, 'actionType' | 'quantity'> | Pick<AdminTypes.FeeSale, 'actionType' | 'quantity'> | Pick<AdminTypes.GiftCardSale, 'actionType' | 'quantity'> | (
            Pick<AdminTypes.ProductSale, 'actionType' | 'quantity'>
            & { lineItem: Pick<AdminTypes.LineItem, 'id'> }
          ) | Pick<AdminTypes.ShippingLineSale, 'actionType' | 'quantity'> | Pick<AdminTypes.TipSale, 'actionType' | 'quantity'> | Pick<AdminTypes.UnknownSale, 'actionType' | 'quantity'>> } }
      ) | (
        Pick<AdminTypes.RefundAgreement, 'id' | 'happenedAt' | 'reason'>
        & { sales: { nodes: Array<Pick<AdminTypes.AdditionalFeeSale, 'actionType' | 'quantity'> | Pick<AdminTypes.AdjustmentSale, 'actionType' | 'quantity'> | Pick<AdminTypes.DutySale, 'actionType' | 'quantity'> | Pick<AdminTypes.FeeSale, 'actionType' | 'quantity'> | Pick<AdminTypes.GiftCardSale, 'actionType' | 'quantity'> | (
            Pick<AdminTypes.ProductSale, 'actionType' | 'quantity'>
            & { lineItem: Pick<AdminTypes.LineItem, 'id'> }
          ) | Pick<AdminTypes.ShippingLineSale, 'actionType' | 'quantity'> | Pick<AdminTypes.TipSale, 'actionType' | 'quantity'> | Pick<AdminTypes.UnknownSale, 'actionType' | 'quantity'>> } }
      ) | (
        Pick<AdminTypes.ReturnAgreement, 'id' | 'happenedAt' | 'reason'>
        & { sales: { nodes: Array<Pick<AdminTypes.AdditionalFeeSale, 'actionType' | 'quantity'> | Pick<AdminTypes.AdjustmentSale, 'actionType' | 'quantity'> | Pick<AdminTypes.DutySale, 'actionType' | 'quantity'> | Pick<AdminTypes.FeeSale, 'actionType' | 'quantity'> | Pick<AdminTypes.GiftCardSale, 'actionType' | 'quantity'> | (
            Pick<AdminTypes.ProductSale, 'actionType' | 'quantity'>
            & { lineItem: Pick<AdminTypes.LineItem, 'id'> }
          ) | Pick<AdminTypes.ShippingLineSale, 'actionType' | 'quantity'> | Pick<AdminTypes.TipSale, 'actionType' | 'quantity'> | Pick<AdminTypes.UnknownSale, 'actionType' | 'quantity'>> } }
      )> } }
  )> };

export type ReconcileOrderListQueryVariables = AdminTypes.Exact<{
  first: AdminTypes.Scalars['Int']['input'];
  after?: AdminTypes.InputMaybe<AdminTypes.Scalars['String']['input']>;
  query: AdminTypes.Scalars['String']['input'];
}>;


export type ReconcileOrderListQuery = { orders: { pageInfo: Pick<AdminTypes.PageInfo, 'hasNextPage' | 'endCursor'>, nodes: Array<(
      Pick<AdminTypes.Order, 'id' | 'updatedAt' | 'cancelledAt' | 'edited'>
      & { fulfillments: Array<Pick<AdminTypes.Fulfillment, 'id' | 'status'>>, refunds: Array<Pick<AdminTypes.Refund, 'id'>> }
    )> } };

export type RefundPlanLineMutationVariables = AdminTypes.Exact<{
  input: AdminTypes.RefundInput;
  idempotencyKey: AdminTypes.Scalars['String']['input'];
}>;


export type RefundPlanLineMutation = { refundCreate?: AdminTypes.Maybe<{ refund?: AdminTypes.Maybe<(
      Pick<AdminTypes.Refund, 'id' | 'note'>
      & { totalRefundedSet: { presentmentMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> } }
    )>, userErrors: Array<Pick<AdminTypes.UserError, 'field' | 'message'>> }> };

export type RunBackfillQueryMutationVariables = AdminTypes.Exact<{
  query: AdminTypes.Scalars['String']['input'];
}>;


export type RunBackfillQueryMutation = { bulkOperationRunQuery?: AdminTypes.Maybe<{ bulkOperation?: AdminTypes.Maybe<Pick<AdminTypes.BulkOperation, 'id' | 'status'>>, userErrors: Array<Pick<AdminTypes.BulkOperationUserError, 'field' | 'message' | 'code'>> }> };

export type SetPlanAvailabilityMutationVariables = AdminTypes.Exact<{
  metafields: Array<AdminTypes.MetafieldsSetInput> | AdminTypes.MetafieldsSetInput;
}>;


export type SetPlanAvailabilityMutation = { metafieldsSet?: AdminTypes.Maybe<{ metafields?: AdminTypes.Maybe<Array<Pick<AdminTypes.Metafield, 'key' | 'namespace' | 'updatedAt'>>>, userErrors: Array<Pick<AdminTypes.MetafieldsSetUserError, 'field' | 'message' | 'code'>> }> };

export type SetPlanEditQuantityMutationVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
  lineItemId: AdminTypes.Scalars['ID']['input'];
  quantity: AdminTypes.Scalars['Int']['input'];
}>;


export type SetPlanEditQuantityMutation = { orderEditSetQuantity?: AdminTypes.Maybe<{ calculatedLineItem?: AdminTypes.Maybe<Pick<AdminTypes.CalculatedLineItem, 'id' | 'quantity'>>, userErrors: Array<Pick<AdminTypes.UserError, 'field' | 'message'>> }> };

export type ShopAccessScopesQueryVariables = AdminTypes.Exact<{ [key: string]: never; }>;


export type ShopAccessScopesQuery = { shop: Pick<AdminTypes.Shop, 'id'>, app?: AdminTypes.Maybe<{ installation?: AdminTypes.Maybe<{ accessScopes: Array<Pick<AdminTypes.AccessScope, 'handle'>> }> }> };

export type ShopCurrencyQueryVariables = AdminTypes.Exact<{ [key: string]: never; }>;


export type ShopCurrencyQuery = { shop: Pick<AdminTypes.Shop, 'currencyCode'> };

export type SuggestedPlanRefundQueryVariables = AdminTypes.Exact<{
  id: AdminTypes.Scalars['ID']['input'];
  refundLineItems: Array<AdminTypes.RefundLineItemInput> | AdminTypes.RefundLineItemInput;
}>;


export type SuggestedPlanRefundQuery = { order?: AdminTypes.Maybe<{ suggestedRefund?: AdminTypes.Maybe<{ amountSet: { presentmentMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> }, suggestedTransactions: Array<(
        Pick<AdminTypes.SuggestedOrderTransaction, 'gateway' | 'kind'>
        & { amountSet: { presentmentMoney: Pick<AdminTypes.MoneyV2, 'amount' | 'currencyCode'> }, parentTransaction?: AdminTypes.Maybe<Pick<AdminTypes.OrderTransaction, 'id'>> }
      )> }> }> };

interface GeneratedQueryTypes {
  "#graphql\n  query BackfillOperation($id: ID!) {\n    node(id: $id) {\n      ... on BulkOperation {\n        id\n        status\n        errorCode\n        objectCount\n        rootObjectCount\n        url\n        partialDataUrl\n      }\n    }\n  }\n": {return: BackfillOperationQuery, variables: BackfillOperationQueryVariables},
  "#graphql\n  query OnlineStorePublication {\n    publications(first: 50, catalogType: APP) {\n      nodes {\n        id\n        catalog {\n          title\n        }\n      }\n    }\n  }\n": {return: OnlineStorePublicationQuery, variables: OnlineStorePublicationQueryVariables},
  "#graphql\n  query OrderForPlanEdit($id: ID!) {\n    order(id: $id) {\n      id\n      name\n      cancelledAt\n      currencyCode\n      presentmentCurrencyCode\n      displayFinancialStatus\n      totalOutstandingSet {\n        presentmentMoney {\n          amount\n          currencyCode\n        }\n      }\n      lineItems(first: 100) {\n        nodes {\n          id\n          currentQuantity\n          refundableQuantity\n          unfulfilledQuantity\n          discountedUnitPriceSet {\n            presentmentMoney {\n              amount\n            }\n          }\n          customAttributes {\n            key\n            value\n          }\n          variant {\n            id\n          }\n        }\n      }\n      transactions(first: 20) {\n        id\n        kind\n        status\n        gateway\n      }\n      refunds(first: 50) {\n        id\n        note\n        totalRefundedSet {\n          presentmentMoney {\n            amount\n            currencyCode\n          }\n        }\n      }\n    }\n  }\n": {return: OrderForPlanEditQuery, variables: OrderForPlanEditQueryVariables},
  "#graphql\n  query OrderForPlanFulfilment($id: ID!) {\n    order(id: $id) {\n      id\n      name\n      lineItems(first: 50) {\n        nodes {\n          id\n          customAttributes {\n            key\n            value\n          }\n          variant {\n            id\n          }\n        }\n      }\n      fulfillments(first: 20) {\n        id\n        status\n        fulfillmentLineItems(first: 10) {\n          nodes {\n            quantity\n            lineItem {\n              id\n            }\n          }\n        }\n      }\n      fulfillmentOrders(first: 5) {\n        nodes {\n          id\n          status\n          supportedActions {\n            action\n          }\n          assignedLocation {\n            name\n          }\n          lineItems(first: 10) {\n            nodes {\n              id\n              remainingQuantity\n              lineItem {\n                id\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n": {return: OrderForPlanFulfilmentQuery, variables: OrderForPlanFulfilmentQueryVariables},
  "#graphql\n  query OrderForPlanRefund($id: ID!) {\n    order(id: $id) {\n      id\n      name\n      cancelledAt\n      currencyCode\n      presentmentCurrencyCode\n      lineItems(first: 100) {\n        nodes {\n          id\n          refundableQuantity\n          unfulfilledQuantity\n          customAttributes {\n            key\n            value\n          }\n          variant {\n            id\n          }\n        }\n      }\n      refunds(first: 50) {\n        id\n        note\n        totalRefundedSet {\n          presentmentMoney {\n            amount\n            currencyCode\n          }\n        }\n        refundLineItems(first: 1) {\n          nodes {\n            quantity\n            lineItem {\n              id\n            }\n          }\n        }\n      }\n    }\n  }\n": {return: OrderForPlanRefundQuery, variables: OrderForPlanRefundQueryVariables},
  "#graphql\n  query OrderPlacedAt($id: ID!) {\n    order(id: $id) {\n      id\n      createdAt\n    }\n  }\n": {return: OrderPlacedAtQuery, variables: OrderPlacedAtQueryVariables},
  "#graphql\n  query ProductVariantOwner($id: ID!) {\n    productVariant(id: $id) {\n      id\n      product {\n        id\n      }\n    }\n  }\n": {return: ProductVariantOwnerQuery, variables: ProductVariantOwnerQueryVariables},
  "#graphql\n  query ProtectionItemCandidates($ids: [ID!]!) {\n    shop {\n      currencyCode\n    }\n    nodes(ids: $ids) {\n      __typename\n      ... on ProductVariant {\n        id\n        title\n        price\n        product {\n          id\n          title\n        }\n      }\n      ... on Product {\n        id\n        title\n        variants(first: 250) {\n          nodes {\n            id\n            title\n            price\n          }\n        }\n      }\n    }\n  }\n": {return: ProtectionItemCandidatesQuery, variables: ProtectionItemCandidatesQueryVariables},
  "#graphql\n  query ProtectionProductsPublished($ids: [ID!]!, $publicationId: ID!) {\n    nodes(ids: $ids) {\n      __typename\n      ... on Product {\n        id\n        title\n        publishedOnPublication(publicationId: $publicationId)\n      }\n    }\n  }\n": {return: ProtectionProductsPublishedQuery, variables: ProtectionProductsPublishedQueryVariables},
  "#graphql\n  query ReconcileOrder($id: ID!) {\n    order(id: $id) {\n      id\n      name\n      email\n      createdAt\n      processedAt\n      updatedAt\n      cancelledAt\n      currencyCode\n      cartToken\n      customAttributes {\n        key\n        value\n      }\n      billingAddress {\n        firstName\n        lastName\n        address1\n        address2\n        city\n        zip\n        countryCodeV2\n      }\n      shippingAddress {\n        firstName\n        lastName\n        address1\n        address2\n        city\n        zip\n        countryCodeV2\n      }\n      lineItems(first: 50) {\n        pageInfo {\n          hasNextPage\n        }\n        nodes {\n          id\n          quantity\n          title\n          vendor\n          customAttributes {\n            key\n            value\n          }\n          originalUnitPriceSet {\n            shopMoney {\n              amount\n              currencyCode\n            }\n          }\n          variant {\n            id\n          }\n        }\n      }\n      fulfillments(first: 10) {\n        id\n        status\n        createdAt\n        fulfillmentLineItems(first: 10) {\n          nodes {\n            quantity\n            lineItem {\n              id\n            }\n          }\n        }\n      }\n      refunds(first: 10) {\n        id\n        note\n        createdAt\n        processedAt\n        refundLineItems(first: 10) {\n          nodes {\n            quantity\n            restockType\n            lineItem {\n              id\n            }\n          }\n        }\n      }\n      agreements(first: 5) {\n        nodes {\n          id\n          happenedAt\n          reason\n          sales(first: 10) {\n            nodes {\n              actionType\n              quantity\n              ... on ProductSale {\n                lineItem {\n                  id\n                }\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n": {return: ReconcileOrderQuery, variables: ReconcileOrderQueryVariables},
  "#graphql\n  query ReconcileOrderList($first: Int!, $after: String, $query: String!) {\n    orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n      nodes {\n        id\n        updatedAt\n        cancelledAt\n        edited\n        fulfillments(first: 5) {\n          id\n          status\n        }\n        refunds(first: 5) {\n          id\n        }\n      }\n    }\n  }\n": {return: ReconcileOrderListQuery, variables: ReconcileOrderListQueryVariables},
  "#graphql\n  query ShopAccessScopes {\n    shop {\n      id\n    }\n    app {\n      installation {\n        accessScopes {\n          handle\n        }\n      }\n    }\n  }\n": {return: ShopAccessScopesQuery, variables: ShopAccessScopesQueryVariables},
  "#graphql\n  query ShopCurrency {\n    shop {\n      currencyCode\n    }\n  }\n": {return: ShopCurrencyQuery, variables: ShopCurrencyQueryVariables},
  "#graphql\n  query SuggestedPlanRefund($id: ID!, $refundLineItems: [RefundLineItemInput!]!) {\n    order(id: $id) {\n      suggestedRefund(\n        refundLineItems: $refundLineItems\n        refundMethodAllocation: ORIGINAL_PAYMENT_METHODS\n      ) {\n        amountSet {\n          presentmentMoney {\n            amount\n            currencyCode\n          }\n        }\n        suggestedTransactions {\n          gateway\n          kind\n          amountSet {\n            presentmentMoney {\n              amount\n              currencyCode\n            }\n          }\n          parentTransaction {\n            id\n          }\n        }\n      }\n    }\n  }\n": {return: SuggestedPlanRefundQuery, variables: SuggestedPlanRefundQueryVariables},
}

interface GeneratedMutationTypes {
  "#graphql\n  mutation BeginPlanEdit($id: ID!) {\n    orderEditBegin(id: $id) {\n      calculatedOrder {\n        id\n        lineItems(first: 100) {\n          nodes {\n            id\n            quantity\n            customAttributes {\n              key\n              value\n            }\n          }\n        }\n      }\n      userErrors {\n        field\n        message\n      }\n    }\n  }\n": {return: BeginPlanEditMutation, variables: BeginPlanEditMutationVariables},
  "#graphql\n  mutation CommitPlanEdit($id: ID!, $staffNote: String!) {\n    orderEditCommit(id: $id, notifyCustomer: false, staffNote: $staffNote) {\n      order {\n        id\n        displayFinancialStatus\n        totalOutstandingSet {\n          presentmentMoney {\n            amount\n            currencyCode\n          }\n        }\n      }\n      userErrors {\n        field\n        message\n      }\n    }\n  }\n": {return: CommitPlanEditMutation, variables: CommitPlanEditMutationVariables},
  "#graphql\n  mutation CreateProtectionProduct($productSet: ProductSetInput!, $synchronous: Boolean!) {\n    productSet(synchronous: $synchronous, input: $productSet) {\n      product {\n        id\n        title\n        status\n        variants(first: 100) {\n          nodes {\n            id\n            title\n            price\n            taxable\n            selectedOptions {\n              name\n              value\n            }\n          }\n        }\n      }\n      userErrors {\n        field\n        message\n        code\n      }\n    }\n  }\n": {return: CreateProtectionProductMutation, variables: CreateProtectionProductMutationVariables},
  "#graphql\n  mutation FulfilPlanLines($fulfillment: FulfillmentInput!) {\n    fulfillmentCreate(fulfillment: $fulfillment) {\n      fulfillment {\n        id\n        status\n      }\n      userErrors {\n        field\n        message\n      }\n    }\n  }\n": {return: FulfilPlanLinesMutation, variables: FulfilPlanLinesMutationVariables},
  "#graphql\n  mutation PublishProtectionProduct($id: ID!, $input: [PublicationInput!]!) {\n    publishablePublish(id: $id, input: $input) {\n      userErrors {\n        field\n        message\n      }\n    }\n  }\n": {return: PublishProtectionProductMutation, variables: PublishProtectionProductMutationVariables},
  "#graphql\n  mutation RefundPlanLine($input: RefundInput!, $idempotencyKey: String!) {\n    refundCreate(input: $input) @idempotent(key: $idempotencyKey) {\n      refund {\n        id\n        note\n        totalRefundedSet {\n          presentmentMoney {\n            amount\n            currencyCode\n          }\n        }\n      }\n      userErrors {\n        field\n        message\n      }\n    }\n  }\n": {return: RefundPlanLineMutation, variables: RefundPlanLineMutationVariables},
  "#graphql\n  mutation RunBackfillQuery($query: String!) {\n    bulkOperationRunQuery(query: $query, groupObjects: true) {\n      bulkOperation {\n        id\n        status\n      }\n      userErrors {\n        field\n        message\n        code\n      }\n    }\n  }\n": {return: RunBackfillQueryMutation, variables: RunBackfillQueryMutationVariables},
  "#graphql\n  mutation SetPlanAvailability($metafields: [MetafieldsSetInput!]!) {\n    metafieldsSet(metafields: $metafields) {\n      metafields {\n        key\n        namespace\n        updatedAt\n      }\n      userErrors {\n        field\n        message\n        code\n      }\n    }\n  }\n": {return: SetPlanAvailabilityMutation, variables: SetPlanAvailabilityMutationVariables},
  "#graphql\n  mutation SetPlanEditQuantity($id: ID!, $lineItemId: ID!, $quantity: Int!) {\n    orderEditSetQuantity(id: $id, lineItemId: $lineItemId, quantity: $quantity, restock: false) {\n      calculatedLineItem {\n        id\n        quantity\n      }\n      userErrors {\n        field\n        message\n      }\n    }\n  }\n": {return: SetPlanEditQuantityMutation, variables: SetPlanEditQuantityMutationVariables},
}
declare module '@shopify/admin-api-client' {
  type InputMaybe<T> = AdminTypes.InputMaybe<T>;
  interface AdminQueries extends GeneratedQueryTypes {}
  interface AdminMutations extends GeneratedMutationTypes {}
}
