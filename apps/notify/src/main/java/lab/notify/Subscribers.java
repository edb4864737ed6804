package lab.notify;

import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.servlet.http.HttpSession;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every live session and its user's latest news. Who fetches the news is the deployment's
 * design (Settings.DESIGN):
 *   per-session  a platform thread for each session, from the server's managed thread factory
 *                (the post's "old implementation"): n sessions, n threads, n calls an interval;
 *   virtual      the same loop on a virtual thread for each session (JDK 21): no platform
 *                thread per session, the same n calls;
 *   notifier     no thread of its own: one scheduled task fetches every session's news in one
 *                call an interval (Notifier, the post's "new implementation").
 */
final class Subscribers {
    static final class Subscriber {
        final int user;
        final HttpSession session;
        final String id;  // the session's, kept: an invalidated session may not answer it
        final long createdAt = System.nanoTime();
        volatile String news = "";
        volatile long fetchedAt;  // System.nanoTime(); 0: never
        volatile Thread poller;

        Subscriber(int user, HttpSession session) {
            this.user = user;
            this.session = session;
            this.id = session.getId();
        }

        /** How old the news a page shows is: since the last fetch, or since the session began. */
        long ageMs() {
            long from = fetchedAt == 0 ? createdAt : fetchedAt;
            return (System.nanoTime() - from) / 1_000_000;
        }
    }

    private static final Map<String, Subscriber> BY_SESSION = new ConcurrentHashMap<>();
    // Thread.startVirtualThread is JDK 21's; this app compiles for 17 (the build host's JDK)
    private static final Method START_VIRTUAL = virtualThreadStarter();

    private Subscribers() {
    }

    static Subscriber get(String sessionId) {
        return BY_SESSION.get(sessionId);
    }

    static Subscriber subscribe(HttpSession session, int user, ManagedThreadFactory threads) {
        Subscriber s = new Subscriber(user, session);
        BY_SESSION.put(s.id, s);
        Runnable loop = () -> poll(s);
        switch (Settings.DESIGN) {
            case "per-session" -> {
                s.poller = threads.newThread(loop);
                s.poller.start();
            }
            case "virtual" -> {
                try {
                    s.poller = (Thread) START_VIRTUAL.invoke(null, loop);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("cannot start a virtual thread: " + e, e);
                }
            }
            default -> { }  // the notifier fetches for everyone
        }
        return s;
    }

    /** A session's own loop: its first fetch at an offset of its own, then one an interval. */
    private static void poll(Subscriber s) {
        try {
            Thread.sleep(Math.floorMod(s.user * 7919L, Settings.INTERVAL_MS));
            while (!Thread.currentThread().isInterrupted()) {
                store(s, BackendClient.fetch(List.of(s.user)));
                Thread.sleep(Settings.INTERVAL_MS);
            }
        } catch (InterruptedException e) {
            // the session ended, or the app is undeployed
        }
    }

    /** The notifier's tick: every live session's news in one call. */
    static void fetchAll() {
        List<Subscriber> all = new ArrayList<>(BY_SESSION.values());
        Map<Integer, String> news = BackendClient.fetch(all.stream().map(s -> s.user).distinct().toList());
        for (Subscriber s : all) {
            store(s, news);
        }
    }

    private static void store(Subscriber s, Map<Integer, String> news) {
        String found = news.get(s.user);
        if (found != null) {
            s.news = found;
            s.fetchedAt = System.nanoTime();
        }
    }

    static void unsubscribe(String sessionId) {
        Subscriber s = BY_SESSION.remove(sessionId);
        if (s != null && s.poller != null) {
            s.poller.interrupt();
        }
    }

    /** Every session ended (the load driver, before a window; and at undeployment). */
    static void endAll() {
        for (Subscriber s : new ArrayList<>(BY_SESSION.values())) {
            try {
                s.session.invalidate();  // the listener unsubscribes it
            } catch (IllegalStateException alreadyInvalid) {
                // ended meanwhile
            }
            unsubscribe(s.id);
        }
    }

    static int count() {
        return BY_SESSION.size();
    }

    static long pollersAlive() {
        return BY_SESSION.values().stream().filter(s -> s.poller != null && s.poller.isAlive()).count();
    }

    private static Method virtualThreadStarter() {
        try {
            return Thread.class.getMethod("startVirtualThread", Runnable.class);
        } catch (NoSuchMethodException e) {
            return null;  // a JDK before 21: the "virtual" design fails at its first session
        }
    }
}
