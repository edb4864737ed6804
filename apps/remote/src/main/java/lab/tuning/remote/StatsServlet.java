package lab.tuning.remote;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * GET /remote/stats: the bean invocations the server has counted, so that the client can show
 * that each of its calls was one invocation on the server and not answered on its side.
 */
@WebServlet("/stats")
public class StatsServlet extends HttpServlet {

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        response.setContentType("application/json");
        response.getWriter().write("{\"calls\":" + Tally.calls.get() + "}");
    }
}
