package lab.messages;

import jakarta.annotation.Resource;
import jakarta.ejb.MessageDriven;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The queue's consumer: spins tl.msg.work_us microseconds of CPU per message (the work a
 * consumer does, declared), with tl.msg.consumer_insert=true also inserts a row into the
 * database in the message's transaction (work that waits for I/O, not the CPU), then records
 * the message in the ledger. Its destination and maxSession are in WEB-INF/ejb-jar.xml, where
 * the server replaces ${tl.*} properties.
 */
@MessageDriven(name = "WorkConsumer")
public class Consumer implements MessageListener {
    static final long WORK_NANOS = Long.getLong("tl.msg.work_us", 200) * 1000;
    static final boolean INSERT = Boolean.parseBoolean(System.getProperty("tl.msg.consumer_insert", "false"));

    private static volatile long sink;

    @Resource(lookup = "java:jboss/datasources/MessagesDS")
    private DataSource local;

    @Override
    public void onMessage(Message message) {
        try {
            long epoch = message.getLongProperty("tl_epoch");
            boolean counted = Ledger.begin(epoch);
            long until = System.nanoTime() + WORK_NANOS;
            long x = 0;
            while (System.nanoTime() < until) {
                x += x * 31 + 7;
            }
            sink = x;
            if (INSERT) {
                try (Connection connection = local.getConnection();
                     PreparedStatement statement = connection.prepareStatement(
                             "INSERT INTO consumed_message (deployment, id, epoch) VALUES (?, ?, ?)")) {
                    statement.setString(1, Producer.DEPLOYMENT);
                    statement.setLong(2, message.getLongProperty("tl_id"));
                    statement.setLong(3, epoch);
                    statement.executeUpdate();
                }
            }
            if (counted) {
                Ledger.consumed(epoch, message.getLongProperty("tl_id"),
                        message.getLongProperty("tl_sent_ns"));
            }
        } catch (JMSException e) {
            throw new IllegalStateException("a message without the lab's properties: " + e, e);
        } catch (SQLException e) {
            throw new IllegalStateException("the consumer's row: " + e, e);  // rolled back, redelivered
        }
    }
}
