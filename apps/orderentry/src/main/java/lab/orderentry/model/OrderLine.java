package lab.orderentry.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.math.BigDecimal;

/** One line of an order, with its own surrogate id (not a composite key) so inserts batch. */
@Entity
@Table(name = "order_line")
public class OrderLine {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "order_line_seq")
    @SequenceGenerator(name = "order_line_seq", sequenceName = "order_line_seq", allocationSize = 50)
    private Long id;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "order_id")
    private CustomerOrder order;

    @Column(name = "line_no")
    private int lineNo;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "item_id")
    private Item item;

    private int quantity;

    /** Unit price when the order was entered: later price changes do not alter the order. */
    private BigDecimal price;

    protected OrderLine() {
    }

    OrderLine(CustomerOrder order, int lineNo, Item item, int quantity, BigDecimal price) {
        this.order = order;
        this.lineNo = lineNo;
        this.item = item;
        this.quantity = quantity;
        this.price = price;
    }

    public Long getId() { return id; }
    public CustomerOrder getOrder() { return order; }
    public int getLineNo() { return lineNo; }
    public Item getItem() { return item; }
    public int getQuantity() { return quantity; }
    public BigDecimal getPrice() { return price; }

    public void setQuantity(int quantity) {
        this.quantity = quantity;
    }
}
