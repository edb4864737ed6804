package lab.orderentry.api;

public record ChangeOrderRequest(Integer lineNo, Integer quantity) {
}
