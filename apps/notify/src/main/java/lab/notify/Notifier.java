package lab.notify;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The post's "new implementation": one task, scheduled once an interval on the server's
 * managed scheduler, fetches the news of every live session in one back-end call. Scheduled
 * only where the deployment's design is "notifier".
 */
@Singleton
@Startup
public class Notifier {
    @Resource
    private ManagedScheduledExecutorService scheduler;

    private ScheduledFuture<?> task;

    @PostConstruct
    void start() {
        if (Settings.DESIGN.equals("notifier")) {
            task = scheduler.scheduleAtFixedRate(Subscribers::fetchAll, Settings.INTERVAL_MS,
                    Settings.INTERVAL_MS, TimeUnit.MILLISECONDS);
        }
    }

    @PreDestroy
    void stop() {
        if (task != null) {
            task.cancel(true);
        }
    }
}
