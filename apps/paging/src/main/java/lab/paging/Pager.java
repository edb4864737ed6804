package lab.paging;

import jakarta.ejb.EJB;
import jakarta.ejb.Remove;
import jakarta.ejb.Stateful;
import jakarta.ejb.StatefulTimeout;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One user's search, held between requests (the guide's stateful design, 4.2): the search runs
 * once, the bean keeps at most `cap` of its rows, and every page is a slice of them. The user's
 * HTTP session holds the bean; a new search removes the old one. A search left open (the last
 * of a measured window) goes when its session does (web.xml) or after the timeout below.
 */
@Stateful
@StatefulTimeout(value = 2, unit = TimeUnit.MINUTES)
// Keeping and slicing rows needs no transaction of its own: the search's query runs in Search's
// (a transaction per query, as the stateless design's pages do).
@TransactionAttribute(TransactionAttributeType.SUPPORTS)
public class Pager implements Serializable {
    @EJB
    private Search search;
    private int category = -1;
    private List<OfferRow> rows = List.of();

    public void search(int category, int cap) {
        this.category = category;
        this.rows = new ArrayList<>(search.rows(category, 0, cap));
    }

    public int category() {
        return category;
    }

    /** Rows {@code first} to {@code first + count} of the kept ones (fewer past the cap). */
    public List<OfferRow> page(int first, int count) {
        int from = Math.min(first, rows.size());
        return new ArrayList<>(rows.subList(from, Math.min(from + count, rows.size())));
    }

    @Remove
    public void close() {
    }
}
