package lab.orderentry.service;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.LockTimeoutException;
import jakarta.persistence.OptimisticLockException;
import jakarta.persistence.PessimisticLockException;
import jakarta.persistence.PersistenceContext;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.List;
import java.util.logging.Logger;
import lab.orderentry.api.ChangeOrderResult;
import lab.orderentry.api.CustomerStatus;
import lab.orderentry.api.NewOrderRequest;
import lab.orderentry.api.NewOrderResult;
import lab.orderentry.api.OrderStatus;
import lab.orderentry.model.Customer;
import lab.orderentry.model.CustomerOrder;
import lab.orderentry.model.Item;
import lab.orderentry.model.OrderLine;

/** The customer-domain transactions: NewOrder, OrderStatus, CustomerStatus, ChangeOrder. */
@Stateless
public class OrderService {

    private static final Logger LOG = Logger.getLogger("lab.orderentry");

    @PersistenceContext(unitName = "orderentry")
    private EntityManager em;

    @EJB
    private AppConfig config;

    /** Lines are priced at the item's current price; the total takes off the customer's discount. */
    public NewOrderResult newOrder(long customerId, List<NewOrderRequest.Line> lines) {
        Customer customer = findCustomer(customerId);
        CustomerOrder order = new CustomerOrder(customer, LocalDateTime.now());
        for (NewOrderRequest.Line line : lines) {
            // find(), not one IN query: each item is a primary-key lookup that the
            // second-level cache can answer when it is on (the point of that recipe).
            Item item = em.find(Item.class, line.itemId());
            if (item == null) {
                throw new NotFoundException("item " + line.itemId() + " not found");
            }
            order.addLine(item, line.quantity());
        }
        order.recomputeTotal(customer.getDiscount());
        // Cascades to the lines. The ids come from the pooled sequence now; the INSERTs wait
        // for the flush at commit, where hibernate.jdbc.batch_size can group them.
        em.persist(order);
        if (config.logEachTransaction()) {
            LOG.info("NewOrder order=" + order.getId() + " customer=" + customerId + " lines=" + lines.size()
                    + " total=" + order.getTotal());
        }
        return new NewOrderResult(order.getId(), order.getLines().size(), order.getTotal());
    }

    public OrderStatus orderStatus(long orderId) {
        CustomerOrder order = em.createQuery(
                        "select o from CustomerOrder o left join fetch o.lines where o.id = :id", CustomerOrder.class)
                .setParameter("id", orderId)
                .getResultStream().findFirst()
                .orElseThrow(() -> orderNotFound(orderId));
        // getId() on the lazy customer and item proxies needs no extra SELECT.
        List<OrderStatus.Line> lines = order.getLines().stream()
                .map(l -> new OrderStatus.Line(l.getLineNo(), l.getItem().getId(), l.getQuantity(), l.getPrice()))
                .toList();
        if (config.logEachTransaction()) {
            LOG.info("OrderStatus order=" + orderId + " lines=" + lines.size());
        }
        return new OrderStatus(order.getId(), order.getCustomer().getId(), order.getStatus(), order.getTotal(),
                order.getVersion(), lines);
    }

    /** One page (0-based) of the customer's orders, newest first. */
    public CustomerStatus customerStatus(long customerId, int page, int size) {
        Customer customer = findCustomer(customerId);
        List<CustomerStatus.Order> orders = em.createQuery(
                        "select new lab.orderentry.api.CustomerStatus$Order(o.id, o.entered, o.status, o.total)"
                                + " from CustomerOrder o where o.customer.id = :customer"
                                + " order by o.entered desc, o.id desc", CustomerStatus.Order.class)
                .setParameter("customer", customerId)
                .setFirstResult(page * size)
                .setMaxResults(size)
                .getResultList();
        if (config.logEachTransaction()) {
            LOG.info("CustomerStatus customer=" + customerId + " page=" + page + " orders=" + orders.size());
        }
        return new CustomerStatus(customerId, customer.getBalance(), page, size, orders);
    }

    /** Sets one line's quantity and recomputes the total; the order's version always goes up. */
    public ChangeOrderResult changeOrder(long orderId, int lineNo, int quantity) {
        CustomerOrder order = em.find(CustomerOrder.class, orderId);
        if (order == null) {
            throw orderNotFound(orderId);
        }
        OrderLine line = order.getLines().stream()
                .filter(l -> l.getLineNo() == lineNo)
                .findFirst()
                .orElseThrow(() -> new NotFoundException("order " + orderId + " has no line " + lineNo));
        BigDecimal before = order.getTotal();
        line.setQuantity(quantity);
        order.recomputeTotal(order.getCustomer().getDiscount());
        try {
            if (order.getTotal().compareTo(before) == 0) {
                // Nothing on the order row changed, so no versioned UPDATE would happen: force
                // one now, so that every ChangeOrder moves the version.
                em.lock(order, LockModeType.PESSIMISTIC_FORCE_INCREMENT);
            }
            // Flush here, not at commit: a concurrent change then fails inside this call,
            // where it becomes a 409, and the version below is the new one.
            em.flush();
        } catch (OptimisticLockException | PessimisticLockException | LockTimeoutException e) {
            throw new ConflictException("order " + orderId + " was changed concurrently, retry", e);
        }
        if (config.logEachTransaction()) {
            LOG.info("ChangeOrder order=" + orderId + " line=" + lineNo + " quantity=" + quantity
                    + " version=" + order.getVersion());
        }
        return new ChangeOrderResult(order.getId(), order.getTotal(), order.getVersion());
    }

    private Customer findCustomer(long customerId) {
        Customer customer = em.find(Customer.class, customerId);
        if (customer == null) {
            throw new NotFoundException("customer " + customerId + " not found");
        }
        return customer;
    }

    private static NotFoundException orderNotFound(long orderId) {
        return new NotFoundException("order " + orderId + " not found");
    }
}
