package lab.purchasing;

import jakarta.ejb.MessageDriven;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;

/**
 * send = queue: the message-driven bean that sends each purchase order whose id a
 * committed work order put on the queue (a rolled-back one's message is never delivered). Its
 * destination and sessions are in WEB-INF/ejb-jar.xml; setup.cli raises the pools in front of
 * it to 64. A send that fails throws: the message is redelivered.
 */
@MessageDriven(name = "PurchaseOrderSender")
public class QueueSender implements MessageListener {
    @Inject
    private Supplier supplier;

    @Override
    public void onMessage(Message message) {
        try {
            supplier.deliver(new PurchaseOrder(message.getLongProperty("tl_id"),
                    message.getLongProperty("tl_epoch"), message.getIntProperty("tl_delay_ms")));
        } catch (JMSException e) {
            throw new IllegalStateException("a message without the lab's properties: " + e, e);
        }
    }
}
