package lab.tuning.remote;

import java.util.concurrent.atomic.AtomicLong;

/** What the server counted, read by the client before and after its window (StatsServlet). */
final class Tally {

    static final AtomicLong calls = new AtomicLong();

    private Tally() {
    }
}
