package lab.orderentry.api;

import java.math.BigDecimal;
import java.util.List;

public record ItemPage(int category, int page, List<Item> items) {

    /** Built by a JPQL constructor expression, so its constructor order is the query's. */
    public record Item(long itemId, String name, BigDecimal price, int onHand) {
    }
}
