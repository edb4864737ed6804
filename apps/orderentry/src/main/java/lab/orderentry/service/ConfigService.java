package lab.orderentry.service;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceUnit;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import lab.orderentry.api.ConfigReport;
import lab.orderentry.api.QuoteRequest;
import lab.orderentry.model.Item;

/**
 * What is in effect, read back from the running persistence unit and JVM (never from the
 * descriptors), so a recipe can verify its change before it measures.
 */
@Stateless
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class ConfigService {

    private static final Long PROBE_ITEM = 1L;

    @PersistenceUnit(unitName = "orderentry")
    private EntityManagerFactory emf;

    @EJB
    private AppConfig config;

    @EJB
    private QuoteRemote quoteRemote;

    public ConfigReport report() {
        return new ConfigReport(hibernate(),
                new ConfigReport.App(config.bulkFlushEvery(), config.logEachTransaction(), config.quoteView()),
                new ConfigReport.Ejb(remoteCallsCopy()), jvm());
    }

    /** Whether an in-VM call through a remote view gets a copy: one empty Quote, asked. */
    private boolean remoteCallsCopy() {
        return "value".equals(quoteRemote.price(new QuoteRequest(1, List.of())).passedBy());
    }

    private ConfigReport.Hibernate hibernate() {
        Map<String, Object> p = emf.getProperties();
        return new ConfigReport.Hibernate(
                intValue(p.get("hibernate.jdbc.batch_size")),
                Boolean.parseBoolean(String.valueOf(p.get("hibernate.order_inserts"))),
                Boolean.parseBoolean(String.valueOf(p.get("hibernate.order_updates"))),
                intValue(p.get("hibernate.jdbc.fetch_size")),
                secondLevelCacheWorks(),
                String.valueOf(p.get("jakarta.persistence.sharedCache.mode")));
    }

    /**
     * Whether Item really goes to the second-level cache. Asked of the cache itself, because
     * no single property says it: Hibernate decides from the shared cache mode, the region
     * factory WildFly plugs in and hibernate.cache.use_second_level_cache together. Loads one
     * item (id 1, present at every scale) through a fresh persistence context, then looks.
     */
    private boolean secondLevelCacheWorks() {
        EntityManager em = emf.createEntityManager();
        try {
            return em.find(Item.class, PROBE_ITEM) != null && emf.getCache().contains(Item.class, PROBE_ITEM);
        } finally {
            em.close();
        }
    }

    private static ConfigReport.Jvm jvm() {
        List<String> collectors = ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(GarbageCollectorMXBean::getName)
                .toList();
        return new ConfigReport.Jvm(
                Runtime.version().toString(),
                Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory(),
                collectors,
                ManagementFactory.getRuntimeMXBean().getInputArguments());
    }

    private static int intValue(Object value) {
        return value == null ? 0 : Integer.parseInt(value.toString().trim());
    }
}
