package lab.listings;

import java.math.BigDecimal;

/** One line of a listing, as every access path hands it to the page: the DTO projection builds
 *  it in the query, the others copy it from an entity or a result set. */
public record ProductRow(int id, String name, BigDecimal price, String description) {

    /** What rendering the line reads of it, folded into a number the answer carries, so that
     *  every path reads every field and the load can tell a short listing from a full one. */
    long fingerprint() {
        return id * 31L + name.length() + description.length() + price.unscaledValue().longValue();
    }
}
