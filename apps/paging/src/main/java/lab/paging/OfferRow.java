package lab.paging;

import java.io.Serializable;
import java.math.BigDecimal;

/** One row of a search's answer. Serializable because a stateful bean keeps a list of them,
 *  and a cache that passivates beans writes that list out. */
public record OfferRow(int id, String title, BigDecimal price) implements Serializable {
    /** A number that differs between pages of different rows: what an answer reports, so that
     *  the two designs can be seen to serve the same pages. */
    long fingerprint() {
        return id * 31L + price.unscaledValue().longValue();
    }
}
