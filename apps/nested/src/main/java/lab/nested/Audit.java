package lab.nested;

import jakarta.annotation.Resource;
import jakarta.ejb.EJBException;
import jakarta.ejb.Stateless;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The inner bean: one audit row per posting, written the same way by both methods; only the
 * transaction differs. apart() suspends the posting's transaction and runs in a new one, which
 * needs a connection of its own from the pool; within() joins the posting's transaction, and
 * the pool hands it the connection that transaction already holds. A failure (the pool gave no
 * connection in time) is a system exception, so the posting's transaction rolls back too and
 * the request fails whole.
 */
@Stateless
public class Audit {
    private static final String AUDIT = "INSERT INTO audit (account) VALUES (?)";

    @Resource(lookup = "java:jboss/datasources/NestedDS")
    private DataSource nested;

    @TransactionAttribute(TransactionAttributeType.REQUIRES_NEW)
    public void apart(int account) {
        write(account);
    }

    @TransactionAttribute(TransactionAttributeType.REQUIRED)
    public void within(int account) {
        write(account);
    }

    private void write(int account) {
        try (Connection connection = nested.getConnection();
             PreparedStatement insert = connection.prepareStatement(AUDIT)) {
            insert.setInt(1, account);
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new EJBException("audit row for account " + account + " not written: " + e.getMessage(), e);
        }
    }
}
