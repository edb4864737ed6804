package lab.nested;

import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The outer bean: a posting in the container's transaction (REQUIRED, the default). It keeps its
 * connection open while the audit runs, as an entity manager keeps its own until the transaction
 * ends, so that with REQUIRES_NEW a request holds two connections at once: the guide's nested
 * beans, each with a connection of its own.
 */
@Stateless
public class Ledger {
    private static final String POST = "UPDATE account SET balance = balance + 1 WHERE id = ?";

    @Resource(lookup = "java:jboss/datasources/NestedDS")
    private DataSource nested;

    @EJB
    private Audit audit;

    public void post(int account) throws SQLException {
        try (Connection connection = nested.getConnection();
             PreparedStatement update = connection.prepareStatement(POST)) {
            update.setInt(1, account);
            if (update.executeUpdate() != 1) {
                throw new IllegalArgumentException("no account " + account);
            }
            if (Settings.DESIGN.equals("required")) {
                audit.within(account);
            } else {
                audit.apart(account);
            }
        }
    }
}
