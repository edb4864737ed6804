package lab.orderentry.service;

import jakarta.ejb.Remote;
import lab.orderentry.api.Quote;
import lab.orderentry.api.QuoteRequest;

/**
 * Quote through a remote business interface. Called from the same JVM, its arguments and
 * result are copied unless the ejb3 subsystem's in-vm-remote-interface-invocation
 * pass-by-value is false: what the pass-by-reference recipe switches.
 */
@Remote
public interface QuoteRemote {

    Quote price(QuoteRequest request);
}
