package lab.orderentry.api;

import java.util.List;

/** Body of NewOrder. Wrapper types so that a missing field arrives as null and can be rejected. */
public record NewOrderRequest(Long customerId, List<Line> lines) {

    public record Line(Long itemId, Integer quantity) {
    }
}
