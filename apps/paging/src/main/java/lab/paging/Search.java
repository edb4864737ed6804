package lab.paging;

import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;

/**
 * The search both designs run: a category's offers in price order, as rows. The stateless
 * design asks it for one page at a time (a row offset and a page's rows: the database finds
 * and sorts the whole category again for each page); the stateful one asks it once per
 * search for the first `cap` rows (Pager).
 */
@Stateless
public class Search {
    private static final String QUERY = "SELECT NEW lab.paging.OfferRow(o.id, o.title, o.price) "
            + "FROM Offer o WHERE o.category = :category ORDER BY o.price, o.id";

    @PersistenceContext(unitName = "paging")
    private EntityManager em;

    public List<OfferRow> rows(int category, int first, int count) {
        return em.createQuery(QUERY, OfferRow.class)
                .setParameter("category", category)
                .setFirstResult(first)
                .setMaxResults(count)
                .getResultList();
    }
}
