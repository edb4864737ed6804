package lab.orderentry.api;

import java.io.Serializable;
import java.math.BigDecimal;

/**
 * Quote's answer. passedBy is "value" when the bean got a copy of the request, "reference"
 * when it got the caller's object.
 */
public record Quote(long customerId, int lines, int noteChars, BigDecimal total, String passedBy)
        implements Serializable {
}
