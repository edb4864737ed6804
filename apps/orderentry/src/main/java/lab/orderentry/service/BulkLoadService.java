package lab.orderentry.service;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.EJBException;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.UserTransaction;
import java.time.LocalDateTime;
import java.util.logging.Level;
import java.util.logging.Logger;
import lab.orderentry.api.BulkLoadResult;
import lab.orderentry.model.InventoryMovement;

/**
 * BulkLoad: R inventory_movement rows in one transaction, through persist(), with a
 * flush()+clear() every tl.app.bulk_flush_every rows so the persistence context stays small.
 * Bean-managed transaction because a large R needs a longer timeout than the server's default
 * (300 s), and the standard API sets a timeout only through UserTransaction.
 */
@Stateless
@TransactionManagement(TransactionManagementType.BEAN)
public class BulkLoadService {

    /** The largest R a request may ask for. */
    public static final int MAX_ROWS = 1_000_000;

    private static final int TIMEOUT_SECONDS = 1800;

    private static final Logger LOG = Logger.getLogger("lab.orderentry");

    @PersistenceContext(unitName = "orderentry")
    private EntityManager em;

    @Resource
    private UserTransaction transaction;

    @EJB
    private AppConfig config;

    public BulkLoadResult loadMovements(int rows) {
        long start = System.nanoTime();
        try {
            transaction.setTransactionTimeout(TIMEOUT_SECONDS);
            transaction.begin();
            insert(rows, config.bulkFlushEvery());
            transaction.commit();
        } catch (Exception e) {
            rollbackQuietly();
            throw new EJBException("bulk load of " + rows + " rows failed", e);
        } finally {
            resetTimeout();
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        if (config.logEachTransaction()) {
            LOG.info("BulkLoad rows=" + rows + " millis=" + millis);
        }
        return new BulkLoadResult(rows, millis);
    }

    private void insert(int rows, int flushEvery) {
        // Items are 1..n (data.sql), so every generated item id is a valid foreign key.
        long items = em.createQuery("select count(i) from Item i", Long.class).getSingleResult();
        LocalDateTime now = LocalDateTime.now();
        for (int i = 0; i < rows; i++) {
            int quantity = (i % 2 == 0 ? 1 : -1) * (1 + i % 10);
            em.persist(new InventoryMovement(1 + i % items, quantity, now, "bulk"));
            if (flushEvery > 0 && (i + 1) % flushEvery == 0) {
                em.flush();
                em.clear();
            }
        }
    }

    private void rollbackQuietly() {
        try {
            if (transaction.getStatus() != Status.STATUS_NO_TRANSACTION) {
                transaction.rollback();
            }
        } catch (Exception e) {
            LOG.log(Level.WARNING, "rollback of bulk load failed", e);
        }
    }

    /** The timeout sticks to the thread: put the server default back for the next request. */
    private void resetTimeout() {
        try {
            transaction.setTransactionTimeout(0);
        } catch (SystemException e) {
            LOG.log(Level.WARNING, "could not reset the transaction timeout", e);
        }
    }
}
