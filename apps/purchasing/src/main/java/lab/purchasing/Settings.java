package lab.purchasing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Properties;

/**
 * What this deployment runs with, read once from its WEB-INF/classes/purchasing.properties (each
 * further deployment of app.toml replaces that file: every design runs side by side on every
 * node, and the load chooses one by its URL) and reported by GET /config.
 */
final class Settings {
    /**
     * How a work order's purchase order reaches the supplier (article 002, slides 8-9):
     *   in-transaction  the supplier is called inside the work order's transaction (ECperf's
     *                   scheduleWorkOrder before the fix): the part's row stays locked while it waits;
     *   outbox          a row in an outbox table, in the transaction; a poller sends it later
     *                   (the slides' "quick fix", a periodic agent);
     *   after-commit    a CDI event observed after a successful commit, handed to a sender
     *                   thread (not durable: a crash after the commit loses the send);
     *   queue           the purchase order's id on a JMS queue, in the transaction; a
     *                   message-driven bean sends it (the slides' "long-term" solution).
     */
    static final List<String> SENDS = List.of("in-transaction", "outbox", "after-commit", "queue");
    private static final Properties FILE = read();
    static final String SEND = FILE.getProperty("send", "in-transaction").trim();
    /** Milliseconds between two looks of the outbox's poller at the table. */
    static final int POLL_MS = Integer.parseInt(FILE.getProperty("poll_ms", "50").trim());

    private Settings() {
    }

    private static Properties read() {
        Properties p = new Properties();
        try (InputStream in = Settings.class.getResourceAsStream("/purchasing.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("WEB-INF/classes/purchasing.properties unreadable", e);
        }
        return p;
    }

    static String json() {
        return "{\"po\":{\"send\":\"" + SEND + "\",\"poll_ms\":" + POLL_MS + "}}";
    }
}
