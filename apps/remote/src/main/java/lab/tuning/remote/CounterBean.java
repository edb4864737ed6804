package lab.tuning.remote;

import jakarta.ejb.Remote;
import jakarta.ejb.Stateless;

/**
 * A stateless session bean whose remote view a client JVM calls over remote+http: the work
 * inside is one atomic increment, so what a call costs is the remote invocation itself.
 */
@Stateless
@Remote(Counter.class)
public class CounterBean implements Counter {

    @Override
    public long increment() {
        return Tally.calls.incrementAndGet();
    }
}
