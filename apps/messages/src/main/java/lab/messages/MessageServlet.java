package lab.messages;

import jakarta.ejb.EJB;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The messages app's HTTP side:
 *   POST /messages/send     one message, sent in its own transaction; answers its id
 *   POST /messages/epoch    a new epoch of the ledger (the load driver, before a window)
 *   GET  /messages/stats    the epoch's ledger: sent, consumed, missing, duplicated, latency
 *   GET  /messages/config   the settings this deployment runs with
 */
@WebServlet("/*")
public class MessageServlet extends HttpServlet {
    @EJB
    private Producer producer;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getPathInfo() == null ? "" : request.getPathInfo();
        response.setContentType("application/json");
        try {
            switch (path) {
                case "/send" -> {
                    long epoch = Ledger.epoch();
                    long id = producer.send(epoch);  // committed when the bean's method returns
                    Ledger.sent(epoch, id);
                    response.getWriter().write("{\"id\":" + id + "}");
                }
                case "/epoch" -> response.getWriter().write("{\"epoch\":" + Ledger.openEpoch() + "}");
                case "/stats" -> response.getWriter().write(Ledger.json());
                case "/config" -> response.getWriter().write(
                        "{\"persistent\":" + Producer.PERSISTENT + ",\"payload_bytes\":"
                        + Producer.PAYLOAD_BYTES + ",\"work_us\":" + Consumer.WORK_NANOS / 1000
                        + ",\"max_session\":\"" + System.getProperty("tl.mdb.max_session", "15") + "\"}");
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
