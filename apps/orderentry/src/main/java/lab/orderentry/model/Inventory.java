package lab.orderentry.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** Stock of one item; its key is the item's id. Written by ScheduleWorkOrder. */
@Entity
@Table(name = "inventory")
public class Inventory {

    @Id
    @Column(name = "item_id")
    private Long itemId;

    @Column(name = "on_hand")
    private int onHand;

    @Column(name = "reorder_level")
    private int reorderLevel;

    public Long getItemId() { return itemId; }
    public int getOnHand() { return onHand; }
    public int getReorderLevel() { return reorderLevel; }

    public void take(int quantity) {
        onHand -= quantity;
    }

    public void receive(int quantity) {
        onHand += quantity;
    }

    public boolean isBelowReorderLevel() {
        return onHand < reorderLevel;
    }
}
