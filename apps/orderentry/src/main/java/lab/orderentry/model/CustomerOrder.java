package lab.orderentry.model;

import jakarta.persistence.CascadeType;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * An order (table "orders"; the class is not called Order because ORDER is a JPQL keyword).
 * @Version gives optimistic locking: ChangeOrder's update bumps it.
 */
@Entity
@Table(name = "orders")
public class CustomerOrder {

    public static final String NEW = "new";

    // allocationSize must equal the sequence's INCREMENT BY (schema.sql): one nextval() per
    // 50 ids, and known ids before the insert, which is what lets Hibernate batch inserts.
    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "orders_seq")
    @SequenceGenerator(name = "orders_seq", sequenceName = "orders_seq", allocationSize = 50)
    private Long id;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "customer_id")
    private Customer customer;

    private LocalDateTime entered;

    private String status;

    private BigDecimal total;

    @Version
    private int version;

    @OneToMany(mappedBy = "order", cascade = CascadeType.PERSIST)
    @OrderBy("lineNo")
    private List<OrderLine> lines = new ArrayList<>();

    protected CustomerOrder() {
    }

    public CustomerOrder(Customer customer, LocalDateTime entered) {
        this.customer = customer;
        this.entered = entered;
        this.status = NEW;
        this.total = BigDecimal.ZERO;
    }

    public OrderLine addLine(Item item, int quantity) {
        OrderLine line = new OrderLine(this, lines.size() + 1, item, quantity, item.getPrice());
        lines.add(line);
        return line;
    }

    /** total = sum(unit price x quantity) less the customer's discount, to the cent. */
    public void recomputeTotal(BigDecimal discount) {
        BigDecimal gross = BigDecimal.ZERO;
        for (OrderLine line : lines) {
            gross = gross.add(line.getPrice().multiply(BigDecimal.valueOf(line.getQuantity())));
        }
        total = gross.multiply(BigDecimal.ONE.subtract(discount)).setScale(2, RoundingMode.HALF_UP);
    }

    public Long getId() { return id; }
    public Customer getCustomer() { return customer; }
    public LocalDateTime getEntered() { return entered; }
    public String getStatus() { return status; }
    public BigDecimal getTotal() { return total; }
    public int getVersion() { return version; }
    public List<OrderLine> getLines() { return lines; }
}
