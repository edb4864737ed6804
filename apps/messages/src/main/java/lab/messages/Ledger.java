package lab.messages;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every message of the current epoch, by id: which were sent (their transaction committed),
 * which were consumed and how often, and how long each took from send to consumption. The
 * load driver opens an epoch before a window and reads the ledger after it, so that a message
 * lost or delivered twice is counted, not guessed. Ids are unique per deployment (one node sends and
 * consumes its own messages: the embedded broker), and a message of an older epoch, still in
 * flight when a new one opens, is counted as stray and nothing else.
 */
public final class Ledger {
    private static final AtomicLong NEXT_ID = new AtomicLong();
    private static volatile Epoch current = new Epoch(0);
    private static final AtomicInteger IN_SEND = new AtomicInteger();  // requests sending now

    private Ledger() {
    }

    static final class Epoch {
        final long number;
        final ConcurrentHashMap<Long, Boolean> sent = new ConcurrentHashMap<>();
        final ConcurrentHashMap<Long, AtomicInteger> consumed = new ConcurrentHashMap<>();
        final List<Long> latencyMicros = new ArrayList<>();
        final AtomicLong stray = new AtomicLong();
        final AtomicInteger inWork = new AtomicInteger();
        final AtomicInteger peakInWork = new AtomicInteger();
        volatile long firstConsumedNanos;
        volatile long lastConsumedNanos;

        Epoch(long number) {
            this.number = number;
        }
    }

    public static long nextId() {
        return NEXT_ID.incrementAndGet();
    }

    /** ``count`` consecutive ids; returns the first. */
    public static long nextIds(int count) {
        return NEXT_ID.getAndAdd(count) + 1;
    }

    public static long epoch() {
        return current.number;
    }

    public static synchronized long openEpoch() {
        current = new Epoch(current.number + 1);
        return current.number;
    }

    /** A request starts sending: until it ends, a message it committed may be consumed
     *  before it is recorded as sent, so the driver waits for none to be in flight. */
    public static void beginSend() {
        IN_SEND.incrementAndGet();
    }

    public static void endSend() {
        IN_SEND.decrementAndGet();
    }

    /** A message whose sending transaction committed. */
    public static void sent(long epoch, long id) {
        Epoch e = current;
        if (e.number == epoch) {
            e.sent.put(id, Boolean.TRUE);
        }
    }

    /** The consumer starts on a message (observed concurrency); returns whether it counts. */
    public static boolean begin(long epoch) {
        Epoch e = current;
        if (e.number != epoch) {
            e.stray.incrementAndGet();
            return false;
        }
        int now = e.inWork.incrementAndGet();
        e.peakInWork.accumulateAndGet(now, Math::max);
        return true;
    }

    /** The consumer finished a message of this epoch. */
    public static void consumed(long epoch, long id, long sentNanos) {
        Epoch e = current;
        if (e.number != epoch) {
            return;
        }
        long now = System.nanoTime();
        e.inWork.decrementAndGet();
        e.consumed.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
        synchronized (e.latencyMicros) {
            e.latencyMicros.add((now - sentNanos) / 1000);
            if (e.firstConsumedNanos == 0) {
                e.firstConsumedNanos = now;
            }
            e.lastConsumedNanos = now;
        }
    }

    /** The epoch's counts as JSON (the load driver's summary reads them). The sends in flight
     *  are read first: a request records its message as sent before it stops counting as in
     *  flight, so when none is in flight at the start, every message the loops below find
     *  consumed was already recorded as sent. Read last (as until 29 November 2026), a send
     *  that recorded its message between the two loops showed as consumed-but-never-sent with
     *  nothing missing and nothing in flight: a torn read that failed a valid window. */
    public static String json() {
        int inSend = IN_SEND.get();
        Epoch e = current;
        long duplicated = 0;
        long unknown = 0;
        for (var entry : e.consumed.entrySet()) {
            duplicated += entry.getValue().get() - 1;
            if (!e.sent.containsKey(entry.getKey())) {
                unknown++;  // consumed, never recorded as sent
            }
        }
        long missing = 0;
        for (Long id : e.sent.keySet()) {
            if (!e.consumed.containsKey(id)) {
                missing++;
            }
        }
        long[] latencies;
        double span;
        synchronized (e.latencyMicros) {
            latencies = e.latencyMicros.stream().mapToLong(Long::longValue).toArray();
            span = (e.lastConsumedNanos - e.firstConsumedNanos) / 1e9;
        }
        Arrays.sort(latencies);
        return "{\"epoch\":" + e.number + ",\"sent\":" + e.sent.size()
                + ",\"consumed\":" + e.consumed.size() + ",\"missing\":" + missing
                + ",\"duplicated\":" + duplicated + ",\"unconfirmed\":" + unknown
                + ",\"stray\":" + e.stray.get() + ",\"in_send\":" + inSend
                + ",\"in_work\":" + e.inWork.get() + ",\"peak_in_work\":" + e.peakInWork.get()
                + ",\"consuming_s\":" + span
                + ",\"e2e_p50_ms\":" + percentile(latencies, 0.50)
                + ",\"e2e_p99_ms\":" + percentile(latencies, 0.99) + "}";
    }

    private static double percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return -1;
        }
        int index = (int) Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
        return sorted[Math.max(0, index)] / 1000.0;
    }
}
