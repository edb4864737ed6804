package lab.messages;

import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.TextMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

/**
 * Sends one message in the caller's JTA transaction (container-managed: the message is
 * delivered only once the transaction commits), and with tl.msg.db_write=row records it as a
 * row in the app's database too (guide 6.4); both read at deployment (the lab redeploys an app
 * when a tl.* property changes):
 *   tl.msg.one_transaction=false (the default): the row first, in a transaction of its own
 *     through a local data source, then the message in another: two one-phase commits, and a
 *     crash between them leaves a row without its message;
 *   tl.msg.one_transaction=true: the row through an XA data source and the message in one
 *     transaction, which the transaction manager commits in two phases, or not at all.
 * Persistent unless tl.msg.persistent=false.
 */
@Stateless
public class Producer {
    static final boolean PERSISTENT = Boolean.parseBoolean(System.getProperty("tl.msg.persistent", "true"));
    static final int PAYLOAD_BYTES = Integer.getInteger("tl.msg.payload_bytes", 1024);
    static final List<String> DB_WRITES = List.of("none", "row");
    static final String DB_WRITE = System.getProperty("tl.msg.db_write", "none");
    static final boolean ROW = DB_WRITE.equals("row");
    static final boolean ONE_TRANSACTION = Boolean.parseBoolean(System.getProperty("tl.msg.one_transaction", "false"));
    private static final String PAYLOAD = "x".repeat(PAYLOAD_BYTES);
    // the rows of every node and every deployment share one table, and each deployment numbers
    // its messages from 1 again (Ledger): its rows carry a name of its own
    static final String DEPLOYMENT = java.util.UUID.randomUUID().toString();
    private static final String INSERT = "INSERT INTO sent_message (deployment, id, epoch) VALUES (?, ?, ?)";

    @Inject
    private JMSContext context;

    @Resource(lookup = "java:/jms/queue/tlWork")
    private Queue queue;

    @Resource(lookup = "java:jboss/datasources/MessagesDS")
    private DataSource local;

    @Resource(lookup = "java:jboss/datasources/MessagesXADS")
    private DataSource xa;

    /** The message, in this method's transaction; in one transaction with its row, the row too. */
    public void send(long epoch, long id) throws JMSException, SQLException {
        if (ROW && ONE_TRANSACTION) {
            insert(xa, epoch, id);
        }
        TextMessage message = context.createTextMessage(PAYLOAD);
        message.setLongProperty("tl_id", id);
        message.setLongProperty("tl_epoch", epoch);
        message.setLongProperty("tl_sent_ns", System.nanoTime());
        context.createProducer()
                .setDeliveryMode(PERSISTENT ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT)
                .send(queue, message);
    }

    /** Messages first..first+count-1 in this method's one transaction (a drain's queue, filled
     *  before its consumer starts: MessageServlet /fill). Never with a row. */
    public void sendAll(long epoch, long first, int count) throws JMSException {
        var producer = context.createProducer()
                .setDeliveryMode(PERSISTENT ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT);
        for (long id = first; id < first + count; id++) {
            TextMessage message = context.createTextMessage(PAYLOAD);
            message.setLongProperty("tl_id", id);
            message.setLongProperty("tl_epoch", epoch);
            message.setLongProperty("tl_sent_ns", System.nanoTime());
            producer.send(queue, message);
        }
    }

    /** The row alone, in this method's own transaction (a row, not in one transaction). */
    public void record(long epoch, long id) throws SQLException {
        insert(local, epoch, id);
    }

    private static void insert(DataSource source, long epoch, long id) throws SQLException {
        try (Connection connection = source.getConnection();
             PreparedStatement statement = connection.prepareStatement(INSERT)) {
            statement.setString(1, DEPLOYMENT);
            statement.setLong(2, id);
            statement.setLong(3, epoch);
            statement.executeUpdate();
        }
    }
}
