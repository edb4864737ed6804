package lab.orderentry.api;

public record WorkOrderResult(long workOrderId, int purchaseOrders) {
}
