package lab.purchasing;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The epoch's ledger, as JSON: the work orders asked for, rolled back on purpose and committed;
 * what the supplier received (deliveries), how many distinct purchase orders that was, how many
 * deliveries have no committed purchase order (orphans: sent from a transaction that then rolled
 * back), the committed purchase orders not delivered yet, and the delay from a purchase order's
 * row to its delivery (p50, p99). Counted in the database, where the supplier's side is kept.
 */
final class Stats {
    private static final String QUERY = "SELECT "
            + "(SELECT count(*) FROM purchase_order WHERE epoch = ?), "
            + "(SELECT count(*) FROM delivery WHERE epoch = ?), "
            + "(SELECT count(DISTINCT po_id) FROM delivery WHERE epoch = ?), "
            + "(SELECT count(*) FROM delivery d WHERE d.epoch = ? "
            + "   AND NOT EXISTS (SELECT 1 FROM purchase_order p WHERE p.id = d.po_id)), "
            + "(SELECT count(*) FROM purchase_order p WHERE p.epoch = ? "
            + "   AND NOT EXISTS (SELECT 1 FROM delivery d WHERE d.epoch = p.epoch AND d.po_id = p.id)), "
            + "(SELECT percentile_cont(ARRAY[0.5, 0.99]) WITHIN GROUP "
            + "   (ORDER BY (extract(epoch FROM d.received_at - p.created_at) * 1000)::float8) "
            + "   FROM delivery d JOIN purchase_order p ON p.id = d.po_id WHERE d.epoch = ?)";

    private Stats() {
    }

    static String json(DataSource plain) throws SQLException {
        long epoch = Ledger.epoch();
        long requested = Ledger.REQUESTED.get();
        try (Connection c = plain.getConnection(); PreparedStatement s = c.prepareStatement(QUERY)) {
            for (int i = 1; i <= 6; i++) {
                s.setLong(i, epoch);
            }
            try (ResultSet r = s.executeQuery()) {
                r.next();
                long committed = r.getLong(1);
                long deliveries = r.getLong(2);
                long delivered = r.getLong(3);
                long orphans = r.getLong(4);
                long undelivered = r.getLong(5);
                Double p50 = null;
                Double p99 = null;
                Array lag = r.getArray(6);
                if (lag != null) {
                    Double[] values = (Double[]) lag.getArray();
                    p50 = values[0];
                    p99 = values[1];
                }
                return "{\"epoch\":" + epoch + ",\"send\":\"" + Settings.SEND + "\""
                        + ",\"requested\":" + requested
                        + ",\"rolled_back\":" + Ledger.ROLLED_BACK.get()
                        + ",\"committed\":" + committed
                        + ",\"deliveries\":" + deliveries
                        + ",\"delivered\":" + delivered
                        + ",\"duplicated\":" + (deliveries - delivered)
                        + ",\"orphans\":" + orphans
                        + ",\"undelivered\":" + undelivered
                        + ",\"delivery_lag_p50_ms\":" + p50
                        + ",\"delivery_lag_p99_ms\":" + p99
                        + ",\"in_request\":" + Ledger.IN_REQUEST.get()
                        + ",\"in_send\":" + Ledger.IN_SEND.get()
                        + ",\"queued\":" + Ledger.QUEUED.get()
                        + ",\"send_failed\":" + Ledger.SEND_FAILED.get()
                        + ",\"last_failure\":\"" + Ledger.lastFailure() + "\"}";
            }
        }
    }
}
