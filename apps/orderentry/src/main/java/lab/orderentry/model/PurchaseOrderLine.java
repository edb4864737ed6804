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

/** One item on a purchase order. */
@Entity
@Table(name = "purchase_order_line")
public class PurchaseOrderLine {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "purchase_order_line_seq")
    @SequenceGenerator(name = "purchase_order_line_seq", sequenceName = "purchase_order_line_seq", allocationSize = 50)
    private Long id;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "po_id")
    private PurchaseOrder purchaseOrder;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "item_id")
    private Item item;

    private int quantity;

    protected PurchaseOrderLine() {
    }

    public PurchaseOrderLine(PurchaseOrder purchaseOrder, Item item, int quantity) {
        this.purchaseOrder = purchaseOrder;
        this.item = item;
        this.quantity = quantity;
    }

    public Long getId() { return id; }
    public PurchaseOrder getPurchaseOrder() { return purchaseOrder; }
    public Item getItem() { return item; }
    public int getQuantity() { return quantity; }
}
