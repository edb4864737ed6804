package lab.purchasing;

import java.io.Serializable;

/**
 * A purchase order on its way to the supplier: its id (its work order's), the ledger's epoch
 * it belongs to, and how long the supplier takes to accept it (the request says: the supplier
 * emulator's delay is the load's parameter, so every design meets the same supplier).
 */
public record PurchaseOrder(long id, long epoch, int delayMs) implements Serializable {
}
