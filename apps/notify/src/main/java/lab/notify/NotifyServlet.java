package lab.notify;

import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;

/**
 * The web tier:
 *   GET  /notify/page?user=N  the user's page: the news its session holds and how old it is
 *                             (the first request opens the session, and its poller with it)
 *   POST /notify/reset        every session ended and the figures zeroed (the load driver,
 *                             before a window)
 *   GET  /notify/stats        the figures since the reset (Figures)
 *   GET  /notify/config       the settings this deployment runs with (Settings)
 */
@WebServlet("/*")
public class NotifyServlet extends HttpServlet {
    @Resource
    private ManagedThreadFactory threads;

    @Override
    public void init() throws ServletException {
        if (!Settings.DESIGNS.contains(Settings.DESIGN)) {
            throw new ServletException("tl.notify.design = '" + Settings.DESIGN + "'; allowed: "
                    + String.join(", ", Settings.DESIGNS));
        }
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getPathInfo() == null ? "" : request.getPathInfo();
        response.setContentType("application/json");
        try {
            switch (path) {
                case "/page" -> response.getWriter().write(page(request));
                case "/reset" -> {
                    Subscribers.endAll();
                    Figures.reset();
                    response.getWriter().write("{\"sessions\":" + Subscribers.count() + "}");
                }
                case "/stats" -> response.getWriter().write(Figures.json());
                case "/config" -> response.getWriter().write(Settings.json());
                default -> {
                    response.setStatus(404);
                    response.getWriter().write("{\"error\":\"no such path; allowed: /page, /reset, /stats, /config\"}");
                }
            }
        } catch (Exception e) {
            response.setStatus(500);
            response.getWriter().write("{\"error\":\"" + String.valueOf(e).replace('"', '\'') + "\"}");
        }
    }

    private String page(HttpServletRequest request) {
        int user = Integer.parseInt(request.getParameter("user"));
        HttpSession session = request.getSession(true);
        Subscribers.Subscriber s = Subscribers.get(session.getId());
        if (s == null) {  // a new session: its user's news from now on
            session.setMaxInactiveInterval(Settings.SESSION_IDLE_S);
            s = Subscribers.subscribe(session, user, threads);
        }
        long age = s.ageMs();
        Figures.PAGES.incrementAndGet();
        if (age > 2L * Settings.INTERVAL_MS) {  // the news is more than an interval late
            Figures.PAGES_STALE.incrementAndGet();
        }
        return "{\"user\":" + s.user + ",\"news\":\"" + s.news + "\",\"age_ms\":" + age + "}";
    }
}
