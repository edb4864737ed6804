package lab.orderentry.service;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;
import java.util.logging.Logger;
import lab.orderentry.api.ItemPage;

/** ItemBrowse: a page of one category's items with their stock. */
@Stateless
public class CatalogService {

    /** Categories are fixed by the contract (API.md): 1..20. */
    public static final int CATEGORIES = 20;

    private static final Logger LOG = Logger.getLogger("lab.orderentry");

    @PersistenceContext(unitName = "orderentry")
    private EntityManager em;

    @EJB
    private AppConfig config;

    /** One page (0-based) in item-id order. */
    public ItemPage browse(int category, int page, int size) {
        if (category < 1 || category > CATEGORIES) {
            throw new NotFoundException("category " + category + " not found (categories are 1.." + CATEGORIES + ")");
        }
        // A projection, not entities: read-only rows need no persistence-context bookkeeping.
        List<ItemPage.Item> items = em.createQuery(
                        "select new lab.orderentry.api.ItemPage$Item(i.id, i.name, i.price, v.onHand)"
                                + " from Item i join Inventory v on v.itemId = i.id"
                                + " where i.category = :category order by i.id", ItemPage.Item.class)
                .setParameter("category", category)
                .setFirstResult(page * size)
                .setMaxResults(size)
                .getResultList();
        if (config.logEachTransaction()) {
            LOG.info("ItemBrowse category=" + category + " page=" + page + " items=" + items.size());
        }
        return new ItemPage(category, page, items);
    }
}
