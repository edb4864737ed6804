package lab.orderentry.api;

import java.io.Serializable;
import java.math.BigDecimal;

/** One line of a QuoteRequest; the note is what makes the payload as large as asked. */
public final class QuoteLine implements Serializable {

    private static final long serialVersionUID = 1L;

    private final long itemId;
    private final int quantity;
    private final BigDecimal unitPrice;
    private final String note;

    public QuoteLine(long itemId, int quantity, BigDecimal unitPrice, String note) {
        this.itemId = itemId;
        this.quantity = quantity;
        this.unitPrice = unitPrice;
        this.note = note;
    }

    public long itemId() {
        return itemId;
    }

    public int quantity() {
        return quantity;
    }

    public BigDecimal unitPrice() {
        return unitPrice;
    }

    public String note() {
        return note;
    }
}
