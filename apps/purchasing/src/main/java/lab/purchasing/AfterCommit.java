package lab.purchasing;

import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;

/**
 * send = after-commit: the work order's event, observed only once its transaction has
 * committed (a rolled-back work order sends nothing), hands the purchase order to a sender
 * thread, so the caller does not wait for the supplier. Not durable: the purchase order exists
 * only in memory between the commit and the send.
 */
@ApplicationScoped
public class AfterCommit {
    @Resource(lookup = "java:jboss/ee/concurrency/executor/poSenders")
    private ManagedExecutorService senders;

    @Inject
    private Supplier supplier;

    void send(@Observes(during = TransactionPhase.AFTER_SUCCESS) PurchaseOrder order) {
        Ledger.queued();
        senders.execute(() -> {
            try {
                supplier.deliver(order);
            } finally {
                Ledger.unqueued();
            }
        });
    }
}
