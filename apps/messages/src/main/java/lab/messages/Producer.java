package lab.messages;

import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.TextMessage;

/**
 * Sends one message in the caller's JTA transaction (container-managed: the message is
 * delivered only once the transaction commits). Persistent unless tl.msg.persistent=false,
 * read at deployment (the lab redeploys an app when a tl.* property changes).
 */
@Stateless
public class Producer {
    static final boolean PERSISTENT = Boolean.parseBoolean(System.getProperty("tl.msg.persistent", "true"));
    static final int PAYLOAD_BYTES = Integer.getInteger("tl.msg.payload_bytes", 1024);
    private static final String PAYLOAD = "x".repeat(PAYLOAD_BYTES);

    @Inject
    private JMSContext context;

    @Resource(lookup = "java:/jms/queue/tlWork")
    private Queue queue;

    public long send(long epoch) throws JMSException {
        long id = Ledger.nextId();
        TextMessage message = context.createTextMessage(PAYLOAD);
        message.setLongProperty("tl_id", id);
        message.setLongProperty("tl_epoch", epoch);
        message.setLongProperty("tl_sent_ns", System.nanoTime());
        context.createProducer()
                .setDeliveryMode(PERSISTENT ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT)
                .send(queue, message);
        return id;
    }
}
