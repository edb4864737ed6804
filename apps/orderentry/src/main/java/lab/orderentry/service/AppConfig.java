package lab.orderentry.service;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.ConcurrencyManagement;
import jakarta.ejb.ConcurrencyManagementType;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import java.util.logging.Logger;

/**
 * The application's own switches (tl.app.*), read once from system properties when the
 * deployment starts: a recipe changes one with /system-property=...:add and a reload.
 * Immutable afterwards, so bean-managed concurrency: no container lock on the hot path.
 */
@Singleton
@Startup
@ConcurrencyManagement(ConcurrencyManagementType.BEAN)
public class AppConfig {

    static final String BULK_FLUSH_EVERY = "tl.app.bulk_flush_every";
    static final String LOG_EACH_TRANSACTION = "tl.app.log_each_transaction";
    static final String QUOTE_VIEW = "tl.app.quote_view";

    private static final Logger LOG = Logger.getLogger("lab.orderentry");

    private int bulkFlushEvery;
    private boolean logEachTransaction;
    private String quoteView;

    @PostConstruct
    void read() {
        bulkFlushEvery = intProperty(BULK_FLUSH_EVERY, 1000);
        logEachTransaction = booleanProperty(LOG_EACH_TRANSACTION, false);
        quoteView = choiceProperty(QUOTE_VIEW, "remote", "remote", "local");
        LOG.info(() -> "orderentry settings: " + BULK_FLUSH_EVERY + "=" + bulkFlushEvery + ", "
                + LOG_EACH_TRANSACTION + "=" + logEachTransaction + ", " + QUOTE_VIEW + "=" + quoteView);
    }

    /** Rows BulkLoad persists between flush()+clear(); 0 or less: only the commit flushes. */
    public int bulkFlushEvery() {
        return bulkFlushEvery;
    }

    public boolean logEachTransaction() {
        return logEachTransaction;
    }

    /** The business interface Quote calls: "remote" (copied unless pass-by-reference) or "local". */
    public String quoteView() {
        return quoteView;
    }

    public boolean quoteViewIsLocal() {
        return "local".equals(quoteView);
    }

    // A malformed value fails the deployment: a recipe must never measure a setting it did
    // not get.
    private static int intProperty(String name, int fallback) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalStateException("system property " + name + " is not an integer: " + value, e);
        }
    }

    private static String choiceProperty(String name, String fallback, String... allowed) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        for (String choice : allowed) {
            if (choice.equals(value.trim())) {
                return choice;
            }
        }
        throw new IllegalStateException("system property " + name + " must be one of "
                + String.join("/", allowed) + ": " + value);
    }

    private static boolean booleanProperty(String name, boolean fallback) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        return switch (value.trim().toLowerCase()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalStateException("system property " + name + " is not true/false: " + value);
        };
    }
}
