package lab.paging;

import jakarta.ejb.EJB;
import jakarta.ejb.NoSuchEJBException;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Properties;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * The app's answers, as JSON:
 *   GET /paging/search?category=C&rows=R           page 1 of a new search of category C (0-49)
 *   GET /paging/page?category=C&number=P&rows=R    page P (from 1) of that search
 *   GET /paging/config                             the design this deployment pages with
 * A page answers {"design", "category", "page", "count", "fingerprint"}. Pages come from the
 * deployment's design (WEB-INF/paging.properties):
 *   stateless  every page runs the search again with a row offset (Search)
 *   stateful   the search runs once into the user's stateful bean, kept in the HTTP session;
 *              later pages are slices of its rows (Pager). A page of a search the session does
 *              not hold is an error (409), not a silent new search.
 */
@WebServlet("/*")
public class PagingServlet extends HttpServlet {
    static final int CATEGORIES = 50; // database/data.sql
    static final int MOST_ROWS = 2000; // offers in a category
    static final List<String> DESIGNS = List.of("stateless", "stateful");
    private static final String PAGER = "pager";

    @EJB
    private Search search;
    private String design;
    private int cap;

    @Override
    public void init() throws ServletException {
        Properties settings = new Properties();
        try (InputStream in = getServletContext().getResourceAsStream("/WEB-INF/paging.properties")) {
            settings.load(in);
        } catch (IOException | NullPointerException e) {
            throw new ServletException("WEB-INF/paging.properties unreadable: " + e);
        }
        design = settings.getProperty("design", "");
        if (!DESIGNS.contains(design)) {
            throw new ServletException("WEB-INF/paging.properties: design = '" + design
                    + "'; allowed: " + String.join(", ", DESIGNS));
        }
        try {
            cap = Integer.parseInt(settings.getProperty("cap", String.valueOf(MOST_ROWS)));
        } catch (NumberFormatException e) {
            throw new ServletException("WEB-INF/paging.properties: cap must be a whole number");
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        String path = request.getPathInfo() == null ? "" : request.getPathInfo();
        try {
            if (path.equals("/config")) {
                response.getWriter().write("{\"design\":\"" + design + "\",\"cap\":" + cap + "}");
                return;
            }
            if (!path.equals("/search") && !path.equals("/page")) {
                response.setStatus(404);
                response.getWriter().write("{\"error\":\"no such path; allowed: /search, /page, /config\"}");
                return;
            }
            int category = number(request.getParameter("category"), "category", 0, CATEGORIES - 1);
            int rows = number(request.getParameter("rows"), "rows", 1, MOST_ROWS);
            int page = path.equals("/search") ? 1
                    : number(request.getParameter("number"), "number", 1, MOST_ROWS);
            List<OfferRow> answer = design.equals("stateful")
                    ? kept(request, path.equals("/search"), category, page, rows)
                    : search.rows(category, (page - 1) * rows, rows);
            long fingerprint = 0;
            for (OfferRow row : answer) {
                fingerprint += row.fingerprint();
            }
            response.getWriter().write("{\"design\":\"" + design + "\",\"category\":" + category
                    + ",\"page\":" + page + ",\"count\":" + answer.size()
                    + ",\"fingerprint\":" + fingerprint + "}");
        } catch (IllegalArgumentException e) {
            response.setStatus(400);
            response.getWriter().write("{\"error\":\"" + e.getMessage() + "\"}");
        } catch (IllegalStateException e) {
            response.setStatus(409);
            response.getWriter().write("{\"error\":\"" + e.getMessage() + "\"}");
        } catch (Exception e) {
            response.setStatus(500);
            response.getWriter().write("{\"error\":\"" + String.valueOf(e).replace('"', '\'') + "\"}");
        }
    }

    /** The stateful design's page: a new search replaces the session's bean (removing the old
     *  one), a later page reads the bean the session holds. */
    private List<OfferRow> kept(HttpServletRequest request, boolean fresh, int category, int page,
                                int rows) throws NamingException {
        HttpSession session = request.getSession(fresh);
        Pager pager = session == null ? null : (Pager) session.getAttribute(PAGER);
        if (fresh) {
            if (pager != null) {
                try {
                    pager.close();
                } catch (NoSuchEJBException gone) {
                    // removed already by its timeout: nothing left to close
                }
            }
            pager = (Pager) new InitialContext().lookup("java:module/Pager");
            pager.search(category, cap);
            session.setAttribute(PAGER, pager);
        } else if (pager == null || pager.category() != category) {
            throw new IllegalStateException("this session holds no search of category " + category);
        }
        return pager.page((page - 1) * rows, rows);
    }

    private static int number(String text, String what, int least, int most) {
        try {
            int n = Integer.parseInt(text);
            if (n < least || n > most) {
                throw new IllegalArgumentException(what + " must be " + least + " to " + most + ", got " + n);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " must be a whole number, got " + text);
        }
    }
}
