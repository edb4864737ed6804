package lab.listings;

import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * A page of a category's products, read one of four ways (WEB-INF/listing.properties chooses;
 * each deployment of the app changes that one line). Every way runs in a container-managed
 * transaction, as a session bean's listing did in the slides, and hands the page the same rows.
 *   entities   managed entities: the persistence context keeps a snapshot of each and checks
 *              every one for changes when the transaction commits (the slides' entity beans)
 *   read-only  the same entities loaded read-only (Hibernate's query hint): no snapshots and
 *              nothing to check at commit (the read-only half of the slides' read-mostly
 *              pattern, slide 13)
 *   dto        a JPQL constructor projection: rows, no entities (slide 14's advice, in JPA)
 *   jdbc       one prepared statement on the data source (slide 14's advice as written)
 */
@Stateless
public class Listings {
    static final List<String> WAYS = List.of("entities", "read-only", "dto", "jdbc");

    private static final String JPQL = "SELECT p FROM Product p WHERE p.category = :category ORDER BY p.id";
    private static final String PROJECTION = "SELECT NEW lab.listings.ProductRow(p.id, p.name, p.price, "
            + "p.description) FROM Product p WHERE p.category = :category ORDER BY p.id";
    private static final String SQL = "SELECT id, name, price, description FROM product "
            + "WHERE category = ? ORDER BY id LIMIT ?";

    @PersistenceContext(unitName = "listings")
    private EntityManager em;

    @Resource(lookup = "java:jboss/datasources/ListingsDS")
    private DataSource dataSource;

    public List<ProductRow> page(String way, int category, int rows) throws SQLException {
        switch (way) {
            case "entities":
                return copied(em.createQuery(JPQL, Product.class)
                        .setParameter("category", category).setMaxResults(rows).getResultList());
            case "read-only":
                return copied(em.createQuery(JPQL, Product.class)
                        .setParameter("category", category).setMaxResults(rows)
                        .setHint("org.hibernate.readOnly", true).getResultList());
            case "dto":
                return em.createQuery(PROJECTION, ProductRow.class)
                        .setParameter("category", category).setMaxResults(rows).getResultList();
            case "jdbc":
                return selected(category, rows);
            default:
                throw new IllegalArgumentException("access = '" + way + "'; allowed: " + WAYS);
        }
    }

    private static List<ProductRow> copied(List<Product> products) {
        List<ProductRow> page = new ArrayList<>(products.size());
        for (Product p : products) {
            page.add(new ProductRow(p.getId(), p.getName(), p.getPrice(), p.getDescription()));
        }
        return page;
    }

    private List<ProductRow> selected(int category, int rows) throws SQLException {
        List<ProductRow> page = new ArrayList<>(rows);
        try (Connection c = dataSource.getConnection();
             PreparedStatement select = c.prepareStatement(SQL)) {
            select.setInt(1, category);
            select.setInt(2, rows);
            try (ResultSet r = select.executeQuery()) {
                while (r.next()) {
                    page.add(new ProductRow(r.getInt(1), r.getString(2), r.getBigDecimal(3),
                            r.getString(4)));
                }
            }
        }
        return page;
    }
}
