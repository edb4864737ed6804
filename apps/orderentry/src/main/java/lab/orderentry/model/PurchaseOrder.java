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

/** An order placed with a supplier to restock components. */
@Entity
@Table(name = "purchase_order")
public class PurchaseOrder {

    public static final String OPEN = "open";

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "purchase_order_seq")
    @SequenceGenerator(name = "purchase_order_seq", sequenceName = "purchase_order_seq", allocationSize = 50)
    private Long id;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "supplier_id")
    private Supplier supplier;

    private LocalDateTime created;

    private String status;

    protected PurchaseOrder() {
    }

    public PurchaseOrder(Supplier supplier, LocalDateTime created) {
        this.supplier = supplier;
        this.created = created;
        this.status = OPEN;
    }

    public Long getId() { return id; }
    public Supplier getSupplier() { return supplier; }
    public LocalDateTime getCreated() { return created; }
    public String getStatus() { return status; }
}
