package lab.orderentry.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.LocalDateTime;

/**
 * A stock movement, written only by BulkLoad. The item is a plain id column, not an
 * association: the bulk load then needs no Item instance (or proxy) per row.
 */
@Entity
@Table(name = "inventory_movement")
public class InventoryMovement {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "inventory_movement_seq")
    @SequenceGenerator(name = "inventory_movement_seq", sequenceName = "inventory_movement_seq", allocationSize = 50)
    private Long id;

    @Column(name = "item_id")
    private long itemId;

    private int quantity;

    private LocalDateTime moved;

    private String reason;

    protected InventoryMovement() {
    }

    public InventoryMovement(long itemId, int quantity, LocalDateTime moved, String reason) {
        this.itemId = itemId;
        this.quantity = quantity;
        this.moved = moved;
        this.reason = reason;
    }

    public Long getId() { return id; }
    public long getItemId() { return itemId; }
    public int getQuantity() { return quantity; }
    public LocalDateTime getMoved() { return moved; }
    public String getReason() { return reason; }
}
