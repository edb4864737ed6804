package lab.notify;

import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;
import jakarta.servlet.http.HttpSessionEvent;
import jakarta.servlet.http.HttpSessionListener;

/** A session that ends (expired or invalidated) stops its poller; so does the undeployment. */
@WebListener
public class SessionEnd implements HttpSessionListener, ServletContextListener {
    @Override
    public void sessionDestroyed(HttpSessionEvent event) {
        Subscribers.unsubscribe(event.getSession().getId());
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        Subscribers.endAll();
    }
}
