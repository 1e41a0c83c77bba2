export { mapOrderWebhook, missingConfirmationReason, orderNameOf } from "./map-webhook";
export { PROTECTED_PRODUCT_REF_PROPERTY } from "./order-placed";
export { orderCustomerIdOf, summarizeOrderPlaced, type OrderSummaryFigures } from "./order-summary";
export { refundCancellationKey } from "./refunds";
export { toServiceTimestamp } from "./timestamps";
export { ORDER_TOPICS, isOrderTopic } from "./types";
export type { DerivedEvent, MappingOptions, MappingResult, OrderTopic } from "./types";
export {
  placedLineRefs,
  planLineRefund,
  planLinesForRefund,
  planRefundNote,
  readRefundTrigger,
} from "./plan-refunds";
export type {
  CurrentOrderLine,
  OrderLineRef,
  OrderRefund,
  PlanRestockType,
  RefundTrigger,
  RefundedLine,
} from "./plan-refunds";
export {
  planEditNote,
  planEditPhrase,
  planEditRefundAmount,
  planEditToQueue,
  planLineEdits,
  readEditTrigger,
} from "./plan-edits";
export type { EditTrigger, EditableOrderLine, EditedLine, PlanLineEdit } from "./plan-edits";
export {
  cancelledOrderHasPlans,
  cancelledPlansRefundNote,
  checkCancelledPlans,
} from "./cancelled-plans";
export {
  fulfilmentMayFulfilPlans,
  planLineFulfilments,
  readFulfilmentTrigger,
} from "./plan-fulfilments";
export type {
  FulfilledLine,
  FulfilmentTrigger,
  OrderFulfilment,
  PlanFulfilmentOrder,
  PlanFulfilmentInput,
  PlanFulfilmentPlan,
} from "./plan-fulfilments";
