package lab.nested;

import java.util.List;

/**
 * What this deployment runs with, read once at deployment from the tl.nested.* system
 * properties (the lab redeploys an app when one changes) and reported by GET /nested/config.
 */
final class Settings {
    /** The audit's transaction: one of its own (REQUIRES_NEW) or the posting's (REQUIRED). */
    static final List<String> DESIGNS = List.of("requires-new", "required");
    static final String DESIGN = System.getProperty("tl.nested.design", "requires-new");
    /** The accounts a posting may name (database/schema.sql). */
    static final int ACCOUNTS = 10_000;

    private Settings() {
    }

    static String json() {
        return "{\"nested\":{\"design\":\"" + DESIGN + "\"}}";
    }
}
