package lab.notify;

import java.util.List;

/**
 * What this deployment runs with, read once at deployment from the tl.notify.* system
 * properties (the lab redeploys an app when one changes) and reported by GET /notify/config.
 */
final class Settings {
    /** How the users' notifications are fetched from the back end (the blog post's two designs and today's third). */
    static final List<String> DESIGNS = List.of("per-session", "notifier", "virtual");
    static final String DESIGN = System.getProperty("tl.notify.design", "per-session");
    /** How often each user's notifications are fetched, in every design. */
    static final int INTERVAL_MS = Integer.getInteger("tl.notify.interval_ms", 1000);
    /** How long a session lives without a request (the load pauses 5 s between requests). */
    static final int SESSION_IDLE_S = Integer.getInteger("tl.notify.session_idle_s", 30);
    /** The back end, in the same server as in the post: its calls go through the loopback. */
    static final String BACKEND_URL = "http://127.0.0.1:8080/notify/backend";

    private Settings() {
    }

    static String json() {
        return "{\"notify\":{\"design\":\"" + DESIGN + "\",\"interval_ms\":" + INTERVAL_MS
                + ",\"session_idle_s\":" + SESSION_IDLE_S + "}}";
    }
}
