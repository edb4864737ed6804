package lab.tuning.remote.client;

import java.util.List;
import java.util.Properties;
import javax.naming.Context;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import lab.tuning.remote.Counter;

/**
 * One thread's remote operations, as article 004 timed them: a name look-up answered by the
 * server's naming service (a binding exported to remote clients: an ejb: name would resolve
 * on the client, with no round trip), and a call of a stateless session bean's remote view.
 * Each thread has its own naming context and its own bean proxy; the JVM's connection to the
 * server is shared, as in any WildFly client.
 */
final class Operation implements AutoCloseable {

    static final List<String> NAMES = List.of("Lookup", "Call");
    /** java:jboss/exported/tl/remote/greeting (setup.cli), and what it holds. */
    static final String BINDING = "tl/remote/greeting";
    static final String BOUND_VALUE = "counter";

    private final Context context;
    private final Counter counter;

    Operation(Settings settings) throws NamingException {
        Properties environment = new Properties();
        environment.put(Context.INITIAL_CONTEXT_FACTORY,
                "org.wildfly.naming.client.WildFlyInitialContextFactory");
        environment.put(Context.PROVIDER_URL, settings.remotingUrl());
        context = new InitialContext(environment);
        counter = (Counter) context.lookup("ejb:/" + settings.module() + "/CounterBean!"
                + Counter.class.getName());
    }

    /** Runs one operation; a wrong answer throws. */
    void run(String name) throws Exception {
        switch (name) {
            case "Lookup" -> {
                Object found = context.lookup(BINDING);
                if (!BOUND_VALUE.equals(found)) {
                    throw new WrongAnswer("look-up of " + BINDING + " returned " + found);
                }
            }
            case "Call" -> {
                if (counter.increment() <= 0) {
                    throw new WrongAnswer("the counter returned a count below 1");
                }
            }
            default -> throw new IllegalArgumentException("unknown transaction " + name);
        }
    }

    @Override
    public void close() throws NamingException {
        context.close();
    }

    /** An answer that came back but is not the right one (the k6 contract's "check"). */
    static final class WrongAnswer extends Exception {
        WrongAnswer(String message) {
            super(message);
        }
    }
}
