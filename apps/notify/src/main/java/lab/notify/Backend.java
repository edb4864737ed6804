package lab.notify;

import jakarta.annotation.Resource;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import javax.sql.DataSource;

/**
 * The back end (the post's SOA service, in the same server as the web tier, as in its test):
 * POST /notify/backend with users "1,2,3" answers one line a user, "user count latest-id",
 * from one query on the app's database, however many users a call names.
 */
@WebServlet("/backend")
public class Backend extends HttpServlet {
    private static final String NEWS = "SELECT user_id, count(*), max(id) FROM notification "
            + "WHERE user_id = ANY(?) GROUP BY user_id";

    @Resource(lookup = "java:jboss/datasources/NotifyDS")
    private DataSource database;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String body = new String(request.getInputStream().readAllBytes()).trim();
        response.setContentType("text/plain");
        try {
            Integer[] users = Arrays.stream(body.split(",")).map(Integer::valueOf).toArray(Integer[]::new);
            StringBuilder out = new StringBuilder(users.length * 16);
            try (Connection c = database.getConnection(); PreparedStatement s = c.prepareStatement(NEWS)) {
                s.setArray(1, c.createArrayOf("int4", users));
                try (ResultSet rows = s.executeQuery()) {
                    while (rows.next()) {
                        out.append(rows.getInt(1)).append(' ').append(rows.getLong(2)).append(' ')
                                .append(rows.getLong(3)).append('\n');
                    }
                }
            }
            response.getWriter().write(out.toString());
        } catch (NumberFormatException | SQLException e) {
            response.setStatus(e instanceof NumberFormatException ? 400 : 500);
            response.getWriter().write(String.valueOf(e));
        }
    }
}
