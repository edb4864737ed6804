package lab.orderentry.api;

import java.math.BigDecimal;
import java.util.List;

public record OrderStatus(long orderId, long customerId, String status, BigDecimal total, int version,
                          List<Line> lines) {

    public record Line(int lineNo, long itemId, int quantity, BigDecimal price) {
    }
}
