package lab.orderentry.api;

import java.math.BigDecimal;

public record NewOrderResult(long orderId, int lines, BigDecimal total) {
}
