package lab.units;

import java.util.List;

/**
 * What this deployment runs with, read once at deployment from the tl.units.* system property
 * (the lab reloads the server when it changes, which redeploys the app) and reported by
 * GET /units/config.
 */
final class Settings {
    /** The persistence units the bulk load may insert through (persistence.xml). */
    static final List<String> UNITS = List.of("oltp", "batch");
    static final String BULK_UNIT = System.getProperty("tl.units.bulk_unit", "oltp");
    /** Rows between two flush()+clear() of a bulk load, in both units: the persistence
     *  context stays small, and each flush sends the rows since the last as JDBC batches. */
    static final int FLUSH_EVERY = 1000;
    /** The largest bulk load a request may ask for (app.toml's parameter). */
    static final int MAX_ROWS = 100_000;

    private Settings() {
    }
}
