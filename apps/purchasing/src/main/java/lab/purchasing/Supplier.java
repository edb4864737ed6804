package lab.purchasing;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The supplier emulator, the other system that every design sends to: it takes the purchase
 * order's delay to answer (its latency, emulated here on the server: the caller's thread waits
 * as it would for a remote call), then keeps what it received, through a data source outside
 * every transaction of the app: a delivery cannot be taken back, which is the slides' second
 * problem ("components delivered for which no purchase order exists").
 */
@ApplicationScoped
public class Supplier {
    private static final String RECEIVED = "INSERT INTO delivery (po_id, epoch) VALUES (?, ?)";

    @Resource(lookup = "java:jboss/datasources/SupplierDS")
    private DataSource supplier;

    /** Sends ``order``; a failure is counted (Ledger) and thrown to the caller. */
    public void deliver(PurchaseOrder order) {
        Ledger.beginSend();
        try {
            if (order.delayMs() > 0) {
                Thread.sleep(order.delayMs());
            }
            try (Connection connection = supplier.getConnection();
                 PreparedStatement statement = connection.prepareStatement(RECEIVED)) {
                statement.setLong(1, order.id());
                statement.setLong(2, order.epoch());
                statement.executeUpdate();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            Ledger.sendFailed(e);
            throw new IllegalStateException("the supplier's wait was interrupted", e);
        } catch (SQLException e) {
            Ledger.sendFailed(e);
            throw new IllegalStateException("the supplier could not keep purchase order " + order.id() + ": " + e, e);
        } finally {
            Ledger.endSend();
        }
    }
}
