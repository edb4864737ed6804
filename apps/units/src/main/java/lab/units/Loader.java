package lab.units;

import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.time.OffsetDateTime;

/**
 * The bulk load: R movements in one container-managed transaction, persist() per row and a
 * flush()+clear() every Settings.FLUSH_EVERY rows, through the unit tl.units.bulk_unit names.
 * The code is the same for both units; only the unit's settings differ.
 */
@Stateless
public class Loader {

    private static final int ITEMS = 1000;

    @PersistenceContext(unitName = "oltp")
    private EntityManager oltp;

    @PersistenceContext(unitName = "batch")
    private EntityManager batch;

    public void load(int rows) {
        EntityManager em = "batch".equals(Settings.BULK_UNIT) ? batch : oltp;
        OffsetDateTime now = OffsetDateTime.now();
        for (int i = 0; i < rows; i++) {
            int quantity = (i % 2 == 0 ? 1 : -1) * (1 + i % 10);
            em.persist(new Movement(1 + i % ITEMS, quantity, now, "bulk"));
            if ((i + 1) % Settings.FLUSH_EVERY == 0) {
                em.flush();
                em.clear();
            }
        }
    }
}
