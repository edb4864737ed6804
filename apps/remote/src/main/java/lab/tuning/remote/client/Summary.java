package lab.tuning.remote.client;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The window's summary in the shape of the k6 contract's (tuninglab/drivers/k6_contract.js):
 * transactions with counts, failures and latencies in milliseconds, ``trial_s`` (the measured
 * seconds, as timed here), and two more keys: ``client``, the client JVM's own figures, and
 * ``problems``, the client's own messages for what failed, which make the engine fail the
 * window (tuninglab/load.py).
 */
final class Summary {

    private Summary() {
    }

    static Map<String, Object> of(Settings settings, List<Recorder> recorders, Figures before,
                                  Figures after, double seconds, double setupMs) {
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Object> transactions = new LinkedHashMap<>();
        List<long[]> everything = new ArrayList<>();
        int calls = 0;
        int operations = 0;
        for (String name : settings.mix().keySet()) {
            int good = recorders.stream().mapToInt(r -> r.count(name)).sum();
            int bad = recorders.stream().mapToInt(r -> r.failedCount(name)).sum();
            long[] all = recorders.stream().map(r -> r.latencies(name))
                    .flatMapToLong(Arrays::stream).toArray();
            everything.add(all);
            operations += good;
            calls += name.equals("Call") ? good : 0;
            Map<String, Object> tx = new LinkedHashMap<>();
            tx.put("count", good);
            tx.put("failed", bad);
            tx.put("latency_ms", good > 0 ? trend(all) : null);
            transactions.put(name, tx);
        }
        long[] merged = everything.stream().flatMapToLong(Arrays::stream).toArray();
        Map<String, Integer> reasons = new LinkedHashMap<>(Map.of("timeout", 0, "status", 0, "check", 0));
        Map<String, Integer> messages = new LinkedHashMap<>();
        for (Recorder r : recorders) {
            r.reasons().forEach((k, v) -> reasons.merge(k, v, Integer::sum));
            r.messages().forEach((k, v) -> messages.merge(k, v, Integer::sum));
        }
        List<String> problems = new ArrayList<>();
        messages.forEach((message, n) -> problems.add(n + " x " + message));
        for (Figures f : List.of(before, after)) {
            if (f.serverTrouble() != null && !problems.contains(f.serverTrouble())) {
                problems.add("the server's count of calls could not be read: " + f.serverTrouble());
            }
        }
        out.put("transactions", transactions);
        out.put("all", merged.length > 0 ? trend(merged) : null);
        out.put("fail_reasons", reasons);
        out.put("dropped_iterations", 0);
        out.put("iterations", operations + reasons.values().stream().mapToInt(Integer::intValue).sum());
        out.put("trial_s", seconds);
        out.put("warmup_s", settings.warmupS());
        out.put("model", settings.model());
        out.put("mix", settings.mix());
        out.put("connections", null);  // one remoting connection, opened before the window
        out.put("connections_expected", 0);
        out.put("client", client(settings, recorders, before, after, seconds, setupMs, operations, calls));
        out.put("problems", problems);
        return out;
    }

    private static Map<String, Object> client(Settings settings, List<Recorder> recorders,
                                              Figures before, Figures after, double seconds,
                                              double setupMs, int operations, int calls) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        c.put("threads", recorders.size());
        c.put("thread_kind", settings.virtualThreads() ? "virtual" : "platform");
        c.put("setup_ms", setupMs);
        List<Map<String, Object>> perThread = new ArrayList<>();
        for (Recorder r : recorders) {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("count", r.count());
            t.put("mean_ms", r.count() > 0 ? r.busyNanos() / 1e6 / r.count() : null);
            perThread.add(t);
        }
        c.put("per_thread", perThread);
        double cpuS = (after.cpuNanos() - before.cpuNanos()) / 1e9;
        c.put("cpu_s", cpuS);
        c.put("cpu_share", seconds > 0 ? cpuS / seconds : null);  // of one CPU
        c.put("cpu_per_op_us", operations > 0 ? cpuS * 1e6 / operations : null);
        c.put("gc_count", after.gcCount() - before.gcCount());
        c.put("gc_ms", after.gcMillis() - before.gcMillis());
        c.put("heap_used_mb", after.heapUsed() / 1048576.0);
        c.put("live_threads", after.liveThreads());
        c.put("rx_packets_per_op", perOp(before.rxPackets(), after.rxPackets(), operations));
        c.put("tx_packets_per_op", perOp(before.txPackets(), after.txPackets(), operations));
        Long serverCalls = before.serverCalls() != null && after.serverCalls() != null
                ? after.serverCalls() - before.serverCalls() : null;
        c.put("server_calls", serverCalls);
        c.put("server_calls_per_call", serverCalls != null && calls > 0 ? (double) serverCalls / calls : null);
        return c;
    }

    private static Double perOp(Long before, Long after, int operations) {
        return before == null || after == null || operations == 0 ? null
                : (double) (after - before) / operations;
    }

    /** The k6 trend's statistics, in milliseconds. */
    private static Map<String, Object> trend(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("avg", Arrays.stream(sorted).average().orElse(0) / 1e6);
        t.put("min", sorted[0] / 1e6);
        t.put("med", percentile(sorted, 50));
        t.put("max", sorted[sorted.length - 1] / 1e6);
        t.put("p(50)", percentile(sorted, 50));
        t.put("p(90)", percentile(sorted, 90));
        t.put("p(99)", percentile(sorted, 99));
        t.put("count", sorted.length);
        return t;
    }

    /** Linear interpolation between the closest ranks, as k6 computes its percentiles. */
    private static double percentile(long[] sorted, double p) {
        double rank = p / 100 * (sorted.length - 1);
        int low = (int) Math.floor(rank);
        int high = (int) Math.ceil(rank);
        double value = sorted[low] + (rank - low) * (sorted[high] - sorted[low]);
        return value / 1e6;
    }
}
