package lab.notify;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the app counts between two resets (the load driver resets before each window): the
 * back-end calls and what they fetched, the pages served and how old their news was, and the
 * JVM's platform threads (a virtual thread is not one of them).
 */
final class Figures {
    static final AtomicLong CALLS = new AtomicLong();
    static final AtomicLong CALLS_FAILED = new AtomicLong();
    static final AtomicLong USERS_FETCHED = new AtomicLong();
    static final AtomicLong PAGES = new AtomicLong();
    static final AtomicLong PAGES_STALE = new AtomicLong();
    private static volatile long since = System.nanoTime();
    private static volatile String lastFailure = "";

    private Figures() {
    }

    static void failed(Exception e) {
        CALLS_FAILED.incrementAndGet();
        lastFailure = String.valueOf(e).replace('"', '\'');
    }

    static void reset() {
        for (AtomicLong counter : new AtomicLong[] {CALLS, CALLS_FAILED, USERS_FETCHED, PAGES, PAGES_STALE}) {
            counter.set(0);
        }
        lastFailure = "";
        ManagementFactory.getThreadMXBean().resetPeakThreadCount();
        since = System.nanoTime();
    }

    static String json() {
        var threads = ManagementFactory.getThreadMXBean();
        double seconds = (System.nanoTime() - since) / 1e9;
        return "{\"design\":\"" + Settings.DESIGN + "\",\"seconds\":" + seconds
                + ",\"sessions\":" + Subscribers.count()
                + ",\"pollers_alive\":" + Subscribers.pollersAlive()
                + ",\"backend_calls\":" + CALLS.get()
                + ",\"backend_failed\":" + CALLS_FAILED.get()
                + ",\"users_fetched\":" + USERS_FETCHED.get()
                + ",\"pages\":" + PAGES.get()
                + ",\"pages_stale\":" + PAGES_STALE.get()
                + ",\"jvm_threads\":" + threads.getThreadCount()
                + ",\"jvm_threads_peak\":" + threads.getPeakThreadCount()
                + ",\"heap_used_bytes\":" + ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed()
                + ",\"last_failure\":\"" + lastFailure + "\"}";
    }
}
