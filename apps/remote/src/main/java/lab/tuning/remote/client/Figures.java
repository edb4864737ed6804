package lab.tuning.remote.client;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The client's own figures at one instant, taken while every thread waits between two phases:
 * its process CPU, its collector's runs, its heap and threads, the packets its container's
 * network interface has carried (a remote operation that costs a round trip shows at least two
 * per operation), and the bean invocations the server has counted (GET /stats).
 */
record Figures(long cpuNanos, long gcCount, long gcMillis, long heapUsed, int liveThreads,
               Long rxPackets, Long txPackets, Long serverCalls, String serverTrouble) {

    private static final Pattern CALLS = Pattern.compile("\"calls\"\\s*:\\s*(\\d+)");
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5)).build();

    static Figures now(URI stats) {
        // the server's count first and the packets after it (and the reverse at the end, in
        // Window), so that the stats request's own packets fall outside the window
        Long calls = null;
        String trouble = null;
        try {
            HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(stats)
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            Matcher m = CALLS.matcher(answer.body());
            if (answer.statusCode() == 200 && m.find()) {
                calls = Long.parseLong(m.group(1));
            } else {
                trouble = stats + " answered " + answer.statusCode();
            }
        } catch (Exception e) {
            trouble = stats + ": " + e;
        }
        return measure(calls, trouble);
    }

    static Figures measure(Long serverCalls, String trouble) {
        long gcCount = 0;
        long gcMillis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcCount += Math.max(0, gc.getCollectionCount());
            gcMillis += Math.max(0, gc.getCollectionTime());
        }
        long cpu = ((com.sun.management.OperatingSystemMXBean)
                ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
        return new Figures(cpu, gcCount, gcMillis,
                ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(),
                ManagementFactory.getThreadMXBean().getThreadCount(),
                packets("rx_packets"), packets("tx_packets"), serverCalls, trouble);
    }

    Figures withServerCalls(Figures stats) {
        return new Figures(cpuNanos, gcCount, gcMillis, heapUsed, liveThreads, rxPackets,
                txPackets, stats.serverCalls, stats.serverTrouble);
    }

    private static Long packets(String counter) {
        try {
            return Long.parseLong(Files.readString(
                    Path.of("/sys/class/net/eth0/statistics", counter)).trim());
        } catch (Exception e) {
            return null;  // not a Linux container: the figure is left out
        }
    }
}
