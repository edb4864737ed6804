package lab.purchasing;

import jakarta.annotation.Resource;
import jakarta.inject.Inject;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import javax.sql.DataSource;

/**
 * The purchasing app's HTTP side:
 *   POST /purchasing/order?part=P&qty=Q&delay_ms=D&rollback=0|1
 *                            one work order (WorkOrders.schedule); answers its id and whether it
 *                            was rolled back on purpose
 *   POST /purchasing/epoch   a new epoch of the ledger (the load driver, before a window)
 *   GET  /purchasing/stats   the epoch's ledger (Stats)
 *   GET  /purchasing/config  the settings this deployment runs with (Settings)
 */
@WebServlet("/*")
public class PurchasingServlet extends HttpServlet {
    private static final int MAX_DELAY_MS = 10_000;

    @Inject
    private WorkOrders workOrders;

    @Resource(lookup = "java:jboss/datasources/SupplierDS")
    private DataSource plain;

    @Override
    public void init() throws ServletException {
        if (!Settings.SENDS.contains(Settings.SEND)) {
            throw new ServletException("WEB-INF/classes/purchasing.properties: send = '" + Settings.SEND + "'; allowed: "
                    + String.join(", ", Settings.SENDS));
        }
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getPathInfo() == null ? "" : request.getPathInfo();
        response.setContentType("application/json");
        try {
            switch (path) {
                case "/order" -> response.getWriter().write(order(request));
                case "/epoch" -> response.getWriter().write("{\"epoch\":" + Ledger.openEpoch() + "}");
                case "/stats" -> response.getWriter().write(Stats.json(plain));
                case "/config" -> response.getWriter().write(Settings.json());
                default -> {
                    response.setStatus(404);
                    response.getWriter().write("{\"error\":\"no such path; allowed: /order, /epoch, /stats, /config\"}");
                }
            }
        } catch (IllegalArgumentException e) {
            response.setStatus(400);
            response.getWriter().write("{\"error\":\"" + String.valueOf(e).replace('"', '\'') + "\"}");
        } catch (Exception e) {
            response.setStatus(500);
            response.getWriter().write("{\"error\":\"" + String.valueOf(e).replace('"', '\'') + "\"}");
        }
    }

    private String order(HttpServletRequest request) throws Exception {
        int part = Integer.parseInt(request.getParameter("part"));
        int qty = Integer.parseInt(request.getParameter("qty"));
        int delay = Integer.parseInt(request.getParameter("delay_ms"));
        boolean rollback = "1".equals(request.getParameter("rollback"));
        if (delay < 0 || delay > MAX_DELAY_MS) {
            throw new IllegalArgumentException("delay_ms must be 0 to " + MAX_DELAY_MS + ", got " + delay);
        }
        Ledger.REQUESTED.incrementAndGet();
        Ledger.IN_REQUEST.incrementAndGet();
        try {
            long id = workOrders.schedule(part, qty, delay, rollback);
            return "{\"id\":" + id + ",\"rolled_back\":" + rollback + "}";
        } finally {
            Ledger.IN_REQUEST.decrementAndGet();
        }
    }
}
