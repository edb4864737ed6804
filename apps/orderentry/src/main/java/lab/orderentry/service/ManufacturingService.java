package lab.orderentry.service;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import lab.orderentry.api.WorkOrderResult;
import lab.orderentry.model.BomEntry;
import lab.orderentry.model.Inventory;
import lab.orderentry.model.Item;
import lab.orderentry.model.PurchaseOrder;
import lab.orderentry.model.PurchaseOrderLine;
import lab.orderentry.model.WorkOrder;

/** ScheduleWorkOrder: the multi-table manufacturing transaction. */
@Stateless
public class ManufacturingService {

    /** A restock brings a component's stock up to this many times its reorder level. */
    static final int RESTOCK_FACTOR = 4;

    private static final Logger LOG = Logger.getLogger("lab.orderentry");

    @PersistenceContext(unitName = "orderentry")
    private EntityManager em;

    @EJB
    private AppConfig config;

    /**
     * Schedules quantity units of an assembly: takes its components out of stock and, for each
     * component that falls below its reorder level, orders a restock from that component's
     * supplier (one purchase order with one line), received at once.
     */
    public WorkOrderResult schedule(long assemblyId, int quantity) {
        Item assembly = em.find(Item.class, assemblyId);
        if (assembly == null) {
            throw new NotFoundException("item " + assemblyId + " not found");
        }
        if (!assembly.isAssembly()) {
            throw new InvalidRequestException("item " + assemblyId + " is a " + assembly.getKind()
                    + ", not an assembly: only assemblies have work orders");
        }
        LocalDateTime now = LocalDateTime.now();
        WorkOrder workOrder = new WorkOrder(assembly, quantity, now);
        em.persist(workOrder);

        List<BomEntry> bom = em.createQuery(
                        "select b from BomEntry b where b.assembly.id = :assembly order by b.component.id", BomEntry.class)
                .setParameter("assembly", assemblyId)
                .getResultList();
        Map<Long, Inventory> stock = lockStock(bom);

        int purchaseOrders = 0;
        for (BomEntry entry : bom) {
            Item component = entry.getComponent();
            Inventory inventory = stock.get(component.getId());
            inventory.take(entry.getQuantity() * quantity);
            if (inventory.isBelowReorderLevel()) {
                int restock = RESTOCK_FACTOR * inventory.getReorderLevel() - inventory.getOnHand();
                PurchaseOrder po = new PurchaseOrder(component.getSupplier(), now);
                em.persist(po);
                em.persist(new PurchaseOrderLine(po, component, restock));
                inventory.receive(restock);
                purchaseOrders++;
            }
        }
        if (config.logEachTransaction()) {
            LOG.info("ScheduleWorkOrder workOrder=" + workOrder.getId() + " item=" + assemblyId
                    + " quantity=" + quantity + " purchaseOrders=" + purchaseOrders);
        }
        return new WorkOrderResult(workOrder.getId(), purchaseOrders);
    }

    /**
     * Locks the components' inventory rows (SELECT ... FOR UPDATE) in one statement, in id
     * order: concurrent work orders sharing components queue instead of losing updates, and
     * the fixed order means they cannot deadlock each other.
     */
    private Map<Long, Inventory> lockStock(List<BomEntry> bom) {
        if (bom.isEmpty()) {
            return Map.of();
        }
        List<Long> componentIds = bom.stream().map(b -> b.getComponent().getId()).toList();
        return em.createQuery("select v from Inventory v where v.itemId in :ids order by v.itemId", Inventory.class)
                .setParameter("ids", componentIds)
                .setLockMode(LockModeType.PESSIMISTIC_WRITE)
                .getResultStream()
                .collect(Collectors.toMap(Inventory::getItemId, Function.identity()));
    }
}
