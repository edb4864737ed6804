package lab.tuning.remote.client;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the engine asks of one client run, as the java-client driver sends it
 * (tuninglab/drivers/java_client.py): the same keys a k6 script reads (BASE_URL, MIX, MODEL,
 * USERS, THINK_MS, TRIAL_S, ROUNDS), the app's workload parameters in capitals, and
 * CLIENT_WARMUP_S, unmeasured seconds before the window (0 from the driver: its client JVM
 * stays up for the whole run, warmed by the engine's warm-up as the server is).
 */
record Settings(URI base, Map<String, Integer> mix, String model, int users, int thinkMs,
                int trialS, int warmupS, int rounds, boolean virtualThreads) {

    private static final Pattern WEIGHT = Pattern.compile("\"([A-Za-z]+)\"\\s*:\\s*(\\d+)");

    static Settings fromEnvironment() {
        return from(System.getenv());
    }

    /** The settings of one run, from KEY=VALUE pairs (the environment, or a request to the
     * client's server mode: Main). */
    static Settings from(Map<String, String> values) {
        Lookup env = new Lookup(values);
        String model = env.text("MODEL");
        if (!model.equals("closed") && !model.equals("smoke")) {
            throw new IllegalArgumentException("MODEL must be closed or smoke, got '" + model + "'");
        }
        Map<String, Integer> mix = new LinkedHashMap<>();
        Matcher m = WEIGHT.matcher(env.text("MIX"));
        while (m.find()) {
            mix.put(m.group(1), Integer.parseInt(m.group(2)));
        }
        for (String name : mix.keySet()) {
            if (!Operation.NAMES.contains(name)) {
                throw new IllegalArgumentException("unknown transaction '" + name + "'; allowed: "
                        + String.join(", ", Operation.NAMES));
            }
        }
        mix.values().removeIf(weight -> weight == 0);
        if (mix.isEmpty()) {
            throw new IllegalArgumentException("MIX names no transaction with a weight above 0");
        }
        int virtual = env.number("VIRTUAL_THREADS", 0);
        return new Settings(URI.create(env.text("BASE_URL")), mix, model,
                Math.max(1, env.number("USERS", 1)), env.number("THINK_MS", 0),
                env.number("TRIAL_S", 0), env.number("CLIENT_WARMUP_S", 0),
                env.number("ROUNDS", 2), virtual == 1);
    }

    /** The server's remoting address: the HTTP port, upgraded (remote+http). */
    String remotingUrl() {
        return "remote+http://" + base.getHost() + ":" + base.getPort();
    }

    /** The WAR's name without .war: the module an ejb: name addresses. */
    String module() {
        return base.getPath().replaceAll("^/+|/+$", "");
    }

    URI stats() {
        return URI.create(base + "/stats");
    }

    /** Named values, each read once with its own error. */
    private record Lookup(Map<String, String> values) {

        String text(String name) {
            String value = values.get(name);
            if (value == null || value.isEmpty()) {
                throw new IllegalArgumentException(name + " is required");
            }
            return value;
        }

        int number(String name, int fallback) {
            String value = values.get(name);
            if (value == null || value.isEmpty()) {
                return fallback;
            }
            try {
                int n = Integer.parseInt(value.trim());
                if (n < 0) {
                    throw new NumberFormatException();
                }
                return n;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + " must be a whole number >= 0, got '"
                        + value + "'");
            }
        }
    }
}
