package lab.nested;

import jakarta.ejb.EJB;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The app's two answers, as JSON:
 *   GET /nested/post?account=A   a posting to account A (1-10,000) and its audit row:
 *                                {"design", "posted"}; 500 with the server's reason when the
 *                                transaction failed (a connection not obtained in time)
 *   GET /nested/config           the settings this deployment runs with (Settings)
 */
@WebServlet("/*")
public class NestedServlet extends HttpServlet {
    @EJB
    private Ledger ledger;

    @Override
    public void init() {
        if (!Settings.DESIGNS.contains(Settings.DESIGN)) {
            throw new IllegalStateException("tl.nested.design = '" + Settings.DESIGN
                    + "'; allowed: " + String.join(", ", Settings.DESIGNS));
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        String path = request.getPathInfo() == null ? "" : request.getPathInfo();
        try {
            switch (path) {
                case "/config" -> response.getWriter().write(Settings.json());
                case "/post" -> {
                    int account = account(request.getParameter("account"));
                    ledger.post(account);
                    response.getWriter().write("{\"design\":\"" + Settings.DESIGN
                            + "\",\"posted\":" + account + "}");
                }
                default -> {
                    response.setStatus(404);
                    response.getWriter().write("{\"error\":\"no such path; allowed: /post, /config\"}");
                }
            }
        } catch (IllegalArgumentException e) {
            response.setStatus(400);
            response.getWriter().write("{\"error\":\"" + e.getMessage() + "\"}");
        } catch (Exception e) {
            response.setStatus(500);
            response.getWriter().write("{\"error\":\"" + String.valueOf(e).replace('"', '\'') + "\"}");
        }
    }

    private static int account(String text) {
        try {
            int n = Integer.parseInt(text);
            if (n < 1 || n > Settings.ACCOUNTS) {
                throw new IllegalArgumentException("account must be 1 to " + Settings.ACCOUNTS + ", got " + n);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("account must be a whole number, got " + text);
        }
    }
}
