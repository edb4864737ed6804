package lab.orderentry.api;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.List;

public record CustomerStatus(long customerId, BigDecimal balance, int page, int size, List<Order> orders) {

    /** Built by a JPQL constructor expression, so its constructor order is the query's. */
    public record Order(long orderId, LocalDateTime entered, String status, BigDecimal total) {
    }
}
