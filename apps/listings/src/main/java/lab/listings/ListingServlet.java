package lab.listings;

import jakarta.ejb.EJB;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Properties;

/**
 * The app's two answers, as JSON:
 *   GET /listings/products?category=C&rows=R   a page of R products of category C (0-49), read
 *                                             the deployment's way: {"way", "count", "fingerprint"}
 *   GET /listings/config                       the way this deployment reads: {"access"}
 */
@WebServlet("/*")
public class ListingServlet extends HttpServlet {
    static final int CATEGORIES = 50; // database/data.sql
    static final int PER_CATEGORY = 2000;

    @EJB
    private Listings listings;
    private String way;

    @Override
    public void init() throws ServletException {
        Properties design = new Properties();
        try (InputStream in = getServletContext().getResourceAsStream("/WEB-INF/listing.properties")) {
            design.load(in);
        } catch (IOException | NullPointerException e) {
            throw new ServletException("WEB-INF/listing.properties unreadable: " + e);
        }
        way = design.getProperty("access", "");
        if (!Listings.WAYS.contains(way)) {
            throw new ServletException("WEB-INF/listing.properties: access = '" + way
                    + "'; allowed: " + String.join(", ", Listings.WAYS));
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        String path = request.getPathInfo() == null ? "" : request.getPathInfo();
        try {
            if (path.equals("/config")) {
                response.getWriter().write("{\"access\":\"" + way + "\"}");
            } else if (path.equals("/products")) {
                int category = number(request.getParameter("category"), "category", CATEGORIES - 1);
                int rows = number(request.getParameter("rows"), "rows", PER_CATEGORY);
                List<ProductRow> page = listings.page(way, category, rows);
                long fingerprint = 0;
                for (ProductRow row : page) {
                    fingerprint += row.fingerprint();
                }
                response.getWriter().write("{\"way\":\"" + way + "\",\"count\":" + page.size()
                        + ",\"fingerprint\":" + fingerprint + "}");
            } else {
                response.setStatus(404);
                response.getWriter().write("{\"error\":\"no such path; allowed: /products, /config\"}");
            }
        } catch (IllegalArgumentException e) {
            response.setStatus(400);
            response.getWriter().write("{\"error\":\"" + e.getMessage() + "\"}");
        } catch (Exception e) {
            response.setStatus(500);
            response.getWriter().write("{\"error\":\"" + String.valueOf(e).replace('"', '\'') + "\"}");
        }
    }

    private static int number(String text, String what, int most) {
        try {
            int n = Integer.parseInt(text);
            if (n < 0 || n > most) {
                throw new IllegalArgumentException(what + " must be 0 to " + most + ", got " + n);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " must be a whole number, got " + text);
        }
    }
}
