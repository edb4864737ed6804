package lab.tuning.remote;

/**
 * The remote view of the counter bean: what article 004's clients called (a counter
 * increment), and the one server class the client jar carries.
 */
public interface Counter {

    /** Adds one to the server's count of calls and returns the new count. */
    long increment();
}
