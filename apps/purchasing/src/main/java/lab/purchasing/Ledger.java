package lab.purchasing;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the app counts in memory for the current epoch (the load driver opens one before each
 * window): work orders asked for and rolled back on purpose, requests and sends under way,
 * purchase orders handed to a sender and not yet sent, and failed sends. What reached the
 * supplier is counted in the database (Stats), where it is kept.
 */
final class Ledger {
    private static volatile long epoch = System.currentTimeMillis();
    static final AtomicLong REQUESTED = new AtomicLong();
    static final AtomicLong ROLLED_BACK = new AtomicLong();
    static final AtomicLong IN_REQUEST = new AtomicLong();
    static final AtomicLong IN_SEND = new AtomicLong();
    static final AtomicLong QUEUED = new AtomicLong();
    static final AtomicLong SEND_FAILED = new AtomicLong();
    private static volatile String lastFailure = "";

    private Ledger() {
    }

    static long epoch() {
        return epoch;
    }

    /** A new epoch: the counters start from zero; requests and sends under way carry on. */
    static synchronized long openEpoch() {
        epoch = Math.max(System.currentTimeMillis(), epoch + 1);
        REQUESTED.set(0);
        ROLLED_BACK.set(0);
        SEND_FAILED.set(0);
        lastFailure = "";
        return epoch;
    }

    static void rolledBack() {
        ROLLED_BACK.incrementAndGet();
    }

    static void beginSend() {
        IN_SEND.incrementAndGet();
    }

    static void endSend() {
        IN_SEND.decrementAndGet();
    }

    static void queued() {
        QUEUED.incrementAndGet();
    }

    static void unqueued() {
        QUEUED.decrementAndGet();
    }

    static void sendFailed(Exception e) {
        SEND_FAILED.incrementAndGet();
        lastFailure = String.valueOf(e).replace('"', '\'').replace('\n', ' ');
    }

    static String lastFailure() {
        return lastFailure;
    }
}
