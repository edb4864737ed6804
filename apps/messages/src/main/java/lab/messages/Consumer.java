package lab.messages;

import jakarta.ejb.MessageDriven;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * The queue's consumer: spins tl.msg.work_us microseconds of CPU per message (the work a
 * consumer does, declared), then records the message in the ledger. Its destination and
 * maxSession are in WEB-INF/ejb-jar.xml, where the server replaces ${tl.*} properties.
 */
@MessageDriven(name = "WorkConsumer")
public class Consumer implements MessageListener {
    static final long WORK_NANOS = Long.getLong("tl.msg.work_us", 200) * 1000;
    private static volatile long sink;

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
            if (counted) {
                Ledger.consumed(epoch, message.getLongProperty("tl_id"),
                        message.getLongProperty("tl_sent_ns"));
            }
        } catch (JMSException e) {
            throw new IllegalStateException("a message without the lab's properties: " + e, e);
        }
    }
}
