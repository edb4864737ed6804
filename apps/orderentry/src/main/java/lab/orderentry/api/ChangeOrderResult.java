package lab.orderentry.api;

import java.math.BigDecimal;

public record ChangeOrderResult(long orderId, BigDecimal total, int version) {
}
