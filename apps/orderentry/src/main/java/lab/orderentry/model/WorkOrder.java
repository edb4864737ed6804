package lab.orderentry.model;

import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.LocalDateTime;

/** An order to build quantity units of an assembly. */
@Entity
@Table(name = "work_order")
public class WorkOrder {

    public static final String SCHEDULED = "scheduled";

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "work_order_seq")
    @SequenceGenerator(name = "work_order_seq", sequenceName = "work_order_seq", allocationSize = 50)
    private Long id;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "item_id")
    private Item item;

    private int quantity;

    private String status;

    private LocalDateTime created;

    protected WorkOrder() {
    }

    public WorkOrder(Item item, int quantity, LocalDateTime created) {
        this.item = item;
        this.quantity = quantity;
        this.status = SCHEDULED;
        this.created = created;
    }

    public Long getId() { return id; }
    public Item getItem() { return item; }
    public int getQuantity() { return quantity; }
    public String getStatus() { return status; }
    public LocalDateTime getCreated() { return created; }
}
