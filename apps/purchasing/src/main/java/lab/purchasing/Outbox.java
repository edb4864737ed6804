package lab.purchasing;

import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * send = outbox: the slides' "quick fix", an agent that looks for new purchase orders
 * every poll_ms and sends them. Each look claims the committed rows nobody claimed (one
 * statement, outside the work orders' transactions; rows still being inserted are not yet
 * visible, so a rolled-back work order's row is never seen), and hands each to a sender
 * thread, which marks it sent once the supplier has it. One poller, so no two looks claim the
 * same row. A claimed row whose send a crash interrupted would need a claim timeout to be sent
 * again; the lab's runs do not crash a node, so there is none. The poller runs only in the
 * outbox deployment, and there all the time: an empty look is one index scan, 20 a second.
 */
@ApplicationScoped
public class Outbox {
    private static final String CLAIM = "UPDATE outbox SET claimed_at = clock_timestamp() WHERE po_id IN "
            + "(SELECT po_id FROM outbox WHERE claimed_at IS NULL ORDER BY po_id LIMIT 512 FOR UPDATE SKIP LOCKED) "
            + "RETURNING po_id, epoch, delay_ms";
    private static final String SENT = "UPDATE outbox SET sent_at = clock_timestamp() WHERE po_id = ?";

    @Resource(lookup = "java:jboss/datasources/SupplierDS")
    private DataSource plain;

    @Resource
    private ManagedScheduledExecutorService scheduler;

    @Resource(lookup = "java:jboss/ee/concurrency/executor/poSenders")
    private ManagedExecutorService senders;

    @Inject
    private Supplier supplier;

    private ScheduledFuture<?> poller;

    void start(@Observes @Initialized(ApplicationScoped.class) Object deployed) {
        if (Settings.SEND.equals("outbox")) {
            poller = scheduler.scheduleWithFixedDelay(this::look, Settings.POLL_MS, Settings.POLL_MS,
                    TimeUnit.MILLISECONDS);
        }
    }

    @PreDestroy
    void stop() {
        if (poller != null) {
            poller.cancel(false);
        }
    }

    private void look() {
        try {
            claimAndSend();
        } catch (RuntimeException e) {  // an exception would end the schedule: counted instead
            Ledger.sendFailed(e);
        }
    }

    private void claimAndSend() {
        List<PurchaseOrder> claimed = new ArrayList<>();
        try (Connection c = plain.getConnection(); PreparedStatement s = c.prepareStatement(CLAIM);
             ResultSet rows = s.executeQuery()) {
            while (rows.next()) {
                claimed.add(new PurchaseOrder(rows.getLong(1), rows.getLong(2), rows.getInt(3)));
            }
        } catch (SQLException e) {
            Ledger.sendFailed(e);  // counted; the next look tries again
            return;
        }
        for (PurchaseOrder order : claimed) {
            Ledger.queued();
            senders.execute(() -> {
                try {
                    supplier.deliver(order);
                    markSent(order);
                } finally {
                    Ledger.unqueued();
                }
            });
        }
    }

    private void markSent(PurchaseOrder order) {
        try (Connection c = plain.getConnection(); PreparedStatement s = c.prepareStatement(SENT)) {
            s.setLong(1, order.id());
            s.executeUpdate();
        } catch (SQLException e) {
            Ledger.sendFailed(e);
        }
    }
}
