package lab.tuning.remote.client;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One thread's record of its measured operations: every good operation's latency by name, the
 * failed ones by name and reason, and the first messages of what failed. A thread writes only
 * its own recorder; the main thread reads them once the window has ended.
 */
final class Recorder {

    private final Map<String, long[]> latencies = new LinkedHashMap<>();
    private final Map<String, Integer> counts = new LinkedHashMap<>();
    private final Map<String, Integer> failed = new LinkedHashMap<>();
    private final Map<String, Integer> reasons = new LinkedHashMap<>();
    private final Map<String, Integer> messages = new LinkedHashMap<>();
    private long busyNanos;

    void good(String name, long nanos) {
        int n = counts.merge(name, 1, Integer::sum);
        long[] values = latencies.computeIfAbsent(name, k -> new long[1024]);
        if (n > values.length) {
            values = Arrays.copyOf(values, values.length * 2);
            latencies.put(name, values);
        }
        values[n - 1] = nanos;
        busyNanos += nanos;
    }

    /** A failed operation: ``reason`` as the k6 contract sorts them (timeout, status, check). */
    void failed(String name, String reason, Throwable error) {
        failed.merge(name, 1, Integer::sum);
        reasons.merge(reason, 1, Integer::sum);
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = name + ": " + root.getClass().getName() + ": " + root.getMessage();
        if (messages.size() < 5 || messages.containsKey(message)) {
            messages.merge(message, 1, Integer::sum);
        }
    }

    int count() {
        return counts.values().stream().mapToInt(Integer::intValue).sum();
    }

    int count(String name) {
        return counts.getOrDefault(name, 0);
    }

    int failedCount(String name) {
        return failed.getOrDefault(name, 0);
    }

    long busyNanos() {
        return busyNanos;
    }

    long[] latencies(String name) {
        return Arrays.copyOf(latencies.getOrDefault(name, new long[0]), count(name));
    }

    Map<String, Integer> reasons() {
        return reasons;
    }

    Map<String, Integer> messages() {
        return messages;
    }
}
