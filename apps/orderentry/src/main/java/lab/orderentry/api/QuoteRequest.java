package lab.orderentry.api;

import java.io.Serializable;
import java.util.List;

/**
 * Quote's argument: the object graph an in-VM call through a remote business interface copies
 * (pass-by-value) or hands over as is (pass-by-reference). A class, not a record like the
 * other shapes, because it needs a transient field, which records cannot have.
 */
public final class QuoteRequest implements Serializable {

    private static final long serialVersionUID = 1L;

    private final long customerId;
    private final List<QuoteLine> lines;

    // Serialization skips transient fields and does not run constructors, so a copy made by
    // pass-by-value sees false here; only the caller's own instance sees true. This is how the
    // bean tells which way it was called, and how /api/config proves the setting works. Set in
    // the constructor, not as "final ... = true": javac would inline that constant at every read.
    private transient boolean callersInstance;

    public QuoteRequest(long customerId, List<QuoteLine> lines) {
        this.customerId = customerId;
        this.lines = List.copyOf(lines);
        this.callersInstance = true;
    }

    public long customerId() {
        return customerId;
    }

    public List<QuoteLine> lines() {
        return lines;
    }

    /** True when the callee holds the caller's object (by reference), false for a copy. */
    public boolean isCallersInstance() {
        return callersInstance;
    }
}
