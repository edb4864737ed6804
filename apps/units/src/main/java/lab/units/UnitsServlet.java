package lab.units;

import jakarta.ejb.EJB;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The app's two answers, as JSON:
 *   POST /units/bulk?rows=R   a bulk load of R movements (1-100,000) in one transaction:
 *                             {"unit", "rows", "millis"}; 500 with the server's reason when it
 *                             failed
 *   GET  /units/config        the settings this deployment and each of its units run with
 */
@WebServlet("/*")
public class UnitsServlet extends HttpServlet {
    @EJB
    private Loader loader;

    @EJB
    private UnitReport report;

    @Override
    public void init() {
        if (!Settings.UNITS.contains(Settings.BULK_UNIT)) {
            throw new IllegalStateException("tl.units.bulk_unit = '" + Settings.BULK_UNIT
                    + "'; allowed: " + String.join(", ", Settings.UNITS));
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if ("/config".equals(request.getPathInfo())) {
            answer(response, 200, report.json());
        } else {
            answer(response, 404, "{\"error\":\"no such path; allowed: GET /config, POST /bulk\"}");
        }
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!"/bulk".equals(request.getPathInfo())) {
            answer(response, 404, "{\"error\":\"no such path; allowed: GET /config, POST /bulk\"}");
            return;
        }
        int rows;
        try {
            rows = rows(request.getParameter("rows"));
        } catch (IllegalArgumentException e) {
            answer(response, 400, "{\"error\":\"" + e.getMessage() + "\"}");
            return;
        }
        long start = System.nanoTime();
        try {
            loader.load(rows);
        } catch (RuntimeException e) {
            answer(response, 500, "{\"error\":\"" + String.valueOf(e).replace('"', '\'') + "\"}");
            return;
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        answer(response, 200, "{\"unit\":\"" + Settings.BULK_UNIT + "\",\"rows\":" + rows
                + ",\"millis\":" + millis + "}");
    }

    private static void answer(HttpServletResponse response, int status, String json) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(json);
    }

    private static int rows(String text) {
        try {
            int n = Integer.parseInt(text);
            if (n < 1 || n > Settings.MAX_ROWS) {
                throw new IllegalArgumentException("rows must be 1 to " + Settings.MAX_ROWS + ", got " + n);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("rows must be a whole number, got " + text);
        }
    }
}
