package lab.messages;

import jakarta.ejb.EJB;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import javax.management.ObjectName;

/**
 * The messages app's HTTP side:
 *   POST /messages/send     one message in its own transaction (and its row, as tl.msg.db_write
 *                           says: Producer); answers its id
 *   POST /messages/epoch    a new epoch of the ledger (the load driver, before a window)
 *   POST /messages/hold     the consumer stops taking messages (its delivery stopped)
 *   POST /messages/fill?n=N N messages sent while it holds, 100 a transaction
 *   POST /messages/release  the consumer starts again: the queue drains
 *   GET  /messages/stats    the epoch's ledger: sent, consumed, missing, duplicated, latency
 *   GET  /messages/config   the settings this deployment runs with
 */
@WebServlet("/*")
public class MessageServlet extends HttpServlet {
    private static final int FILL_BATCH = 100;

    @EJB
    private Producer producer;

    /** The deployment's name as the server knows it (messages.war, or an overlay's). */
    private String deployment() {
        return getServletContext().getContextPath().substring(1) + ".war";
    }

    @Override
    public void init() throws ServletException {
        if (!Producer.DB_WRITES.contains(Producer.DB_WRITE)) {
            throw new ServletException("tl.msg.db_write = '" + Producer.DB_WRITE + "'; allowed: "
                    + String.join(", ", Producer.DB_WRITES));
        }
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getPathInfo() == null ? "" : request.getPathInfo();
        response.setContentType("application/json");
        try {
            switch (path) {
                case "/send" -> {
                    long epoch = Ledger.epoch();
                    long id = Ledger.nextId();
                    Ledger.beginSend();
                    try {
                        if (Producer.ROW && !Producer.ONE_TRANSACTION) {
                            producer.record(epoch, id);  // its own transaction, committed here
                        }
                        producer.send(epoch, id);  // committed when the bean's method returns
                        Ledger.sent(epoch, id);
                    } finally {
                        Ledger.endSend();
                    }
                    response.getWriter().write("{\"id\":" + id + "}");
                }
                case "/epoch" -> response.getWriter().write("{\"epoch\":" + Ledger.openEpoch() + "}");
                case "/hold", "/release" -> {
                    // the MDB's management operation, through the server's model in JMX
                    boolean hold = path.equals("/hold");
                    var server = ManagementFactory.getPlatformMBeanServer();
                    var bean = new ObjectName("jboss.as:deployment=" + deployment()
                            + ",subsystem=ejb3,message-driven-bean=WorkConsumer");
                    server.invoke(bean, hold ? "stopDelivery" : "startDelivery", null, null);
                    response.getWriter().write("{\"delivery_active\":"
                            + server.getAttribute(bean, "deliveryActive") + "}");
                }
                case "/fill" -> {
                    int n = Integer.parseInt(request.getParameter("n"));
                    if (n < 1 || n > 1_000_000) {
                        throw new IllegalArgumentException("n must be 1 to 1000000, got " + n);
                    }
                    long epoch = Ledger.epoch();
                    Ledger.beginSend();  // in flight until recorded, as a single send
                    try {
                        for (int done = 0; done < n; done += FILL_BATCH) {
                            int count = Math.min(FILL_BATCH, n - done);
                            long first = Ledger.nextIds(count);
                            producer.sendAll(epoch, first, count);  // committed on return
                            for (long id = first; id < first + count; id++) {
                                Ledger.sent(epoch, id);
                            }
                        }
                    } finally {
                        Ledger.endSend();
                    }
                    response.getWriter().write("{\"sent\":" + n + "}");
                }
                case "/stats" -> response.getWriter().write(Ledger.json());
                case "/config" -> response.getWriter().write(  // tl.<section>.<key>, as read
                        "{\"msg\":{\"persistent\":" + Producer.PERSISTENT
                        + ",\"payload_bytes\":" + Producer.PAYLOAD_BYTES
                        + ",\"work_us\":" + Consumer.WORK_NANOS / 1000
                        + ",\"db_write\":\"" + Producer.DB_WRITE + "\""
                        + ",\"one_transaction\":" + Producer.ONE_TRANSACTION
                        + ",\"consumer_insert\":" + Consumer.INSERT
                        + "},\"mdb\":{\"max_session\":\""
                        + System.getProperty("tl.mdb.max_session", "15") + "\"}}");
                default -> {
                    response.setStatus(404);
                    response.getWriter().write("{\"error\":\"no such path; allowed: /send, /epoch, /stats, /config\"}");
                }
            }
        } catch (Exception e) {
            response.setStatus(500);
            response.getWriter().write("{\"error\":\"" + String.valueOf(e).replace('"', '\'') + "\"}");
        }
    }
}
