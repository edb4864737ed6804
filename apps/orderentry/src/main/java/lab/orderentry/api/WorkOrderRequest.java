package lab.orderentry.api;

public record WorkOrderRequest(Long itemId, Integer quantity) {
}
