package lab.units;

import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceUnit;
import java.util.Map;

/**
 * What each unit is running with, read from the running units (never from the descriptor), so
 * that a recipe shows both before it measures: the transaction unit's shared cache mode (what
 * tl.units.oltp_shared_cache_mode resolved to), the JDBC sizes Hibernate got, and whether the
 * second-level cache really keeps a movement, asked of the cache after reading the probe row
 * (id 1, database/schema.sql) through a fresh persistence context.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class UnitReport {

    private static final Long PROBE = 1L;

    @PersistenceUnit(unitName = "oltp")
    private EntityManagerFactory oltp;

    @PersistenceUnit(unitName = "batch")
    private EntityManagerFactory batch;

    public String json() {
        return "{\"units\":{\"bulk_unit\":\"" + Settings.BULK_UNIT + "\",\"flush_every\":"
                + Settings.FLUSH_EVERY + ",\"oltp_shared_cache_mode\":\""
                + oltp.getProperties().get("jakarta.persistence.sharedCache.mode") + "\"},\"oltp\":"
                + unit(oltp) + ",\"batch\":" + unit(batch) + "}";
    }

    private static String unit(EntityManagerFactory factory) {
        Map<String, Object> p = factory.getProperties();
        return "{\"jdbc.batch_size\":" + number(p.get("hibernate.jdbc.batch_size"))
                + ",\"jdbc.fetch_size\":" + number(p.get("hibernate.jdbc.fetch_size"))
                + ",\"order_inserts\":" + Boolean.parseBoolean(String.valueOf(p.get("hibernate.order_inserts")))
                + ",\"second_level_cache\":" + caches(factory) + "}";
    }

    private static boolean caches(EntityManagerFactory factory) {
        EntityManager em = factory.createEntityManager();
        try {
            return em.find(Movement.class, PROBE) != null && factory.getCache().contains(Movement.class, PROBE);
        } finally {
            em.close();
        }
    }

    private static int number(Object value) {
        return value == null ? 0 : Integer.parseInt(value.toString().trim());
    }
}
