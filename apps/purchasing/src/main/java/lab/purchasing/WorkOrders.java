package lab.purchasing;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * ECperf's scheduleWorkOrder in miniature, one JTA transaction: the work order's row, the
 * part taken from the inventory (an UPDATE of the part's row, which locks it until the
 * transaction ends), the purchase order's row, and the purchase order sent as Settings.SEND
 * says. A CDI bean, not a session bean: no instance pool stands between the callers and the
 * locks, only the server's request threads.
 */
@ApplicationScoped
public class WorkOrders {
    private static final String NEXT_ID = "SELECT nextval('work_order_id')";
    private static final String WORK_ORDER = "INSERT INTO work_order (id, epoch, part_id, qty) VALUES (?, ?, ?, ?)";
    private static final String TAKE_PART = "UPDATE part SET on_hand = on_hand - ? WHERE id = ?";
    private static final String PURCHASE_ORDER = "INSERT INTO purchase_order (id, epoch, part_id, qty) VALUES (?, ?, ?, ?)";
    private static final String OUTBOX = "INSERT INTO outbox (po_id, epoch, delay_ms) VALUES (?, ?, ?)";

    @Resource(lookup = "java:jboss/datasources/PurchasingDS")
    private DataSource database;

    @Resource
    private TransactionSynchronizationRegistry transaction;

    @Inject
    private Supplier supplier;

    @Inject
    private Event<PurchaseOrder> committed;  // observed after the commit (AfterCommit)

    @Inject
    private JMSContext jms;

    @Resource(lookup = "java:/jms/queue/tlPurchaseOrders")
    private Queue queue;

    /**
     * One work order for ``qty`` of part ``part``; its purchase order asks the supplier for
     * ``delayMs``. With ``rollback`` the transaction is marked for rollback after the send, as
     * a later step that fails would (the lab's injected failure): what was sent inside it
     * cannot be taken back. Answers the work order's id. Any exception rolls the work order
     * back (a checked one too, which @Transactional would otherwise commit).
     */
    @Transactional(rollbackOn = Exception.class)
    public long schedule(int part, int qty, int delayMs, boolean rollback) throws SQLException {
        long epoch = Ledger.epoch();
        long id;
        try (Connection c = database.getConnection()) {
            id = nextId(c);
            insertOrder(c, WORK_ORDER, id, epoch, part, qty);
            try (PreparedStatement s = c.prepareStatement(TAKE_PART)) {
                s.setInt(1, qty);
                s.setInt(2, part);
                if (s.executeUpdate() != 1) {
                    throw new IllegalArgumentException("no part " + part + " in the inventory");
                }
            }
            insertOrder(c, PURCHASE_ORDER, id, epoch, part, qty);
            PurchaseOrder order = new PurchaseOrder(id, epoch, delayMs);
            switch (Settings.SEND) {
                case "in-transaction" -> supplier.deliver(order);  // the part's row stays locked meanwhile
                case "outbox" -> {
                    try (PreparedStatement s = c.prepareStatement(OUTBOX)) {
                        s.setLong(1, id);
                        s.setLong(2, epoch);
                        s.setInt(3, delayMs);
                        s.executeUpdate();
                    }
                }
                case "after-commit" -> committed.fire(order);
                case "queue" -> jms.createProducer()
                        .setProperty("tl_id", id)
                        .setProperty("tl_epoch", epoch)
                        .setProperty("tl_delay_ms", delayMs)
                        .send(queue, "purchase order " + id);
                default -> throw new IllegalStateException("purchasing.properties: send = " + Settings.SEND);
            }
        }
        if (rollback) {
            transaction.setRollbackOnly();
            Ledger.rolledBack();
        }
        return id;
    }

    /** A work order's or its purchase order's row: both are (id, epoch, part, qty). */
    private static void insertOrder(Connection c, String sql, long id, long epoch, int part, int qty)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setLong(1, id);
            s.setLong(2, epoch);
            s.setInt(3, part);
            s.setInt(4, qty);
            s.executeUpdate();
        }
    }

    private static long nextId(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(NEXT_ID); ResultSet r = s.executeQuery()) {
            r.next();
            return r.getLong(1);
        }
    }
}
