package lab.tuning.remote.client;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Phaser;

/**
 * One run of the client: its threads connect, load the server for CLIENT_WARMUP_S unmeasured
 * seconds (this JVM's JIT warms up), stop, and then load it for TRIAL_S measured seconds. Between
 * the phases every thread waits, so the figures taken there (Figures) cover exactly the
 * measured operations. The smoke model runs each transaction ROUNDS times in turn on one thread.
 */
final class Window {

    private enum Stage { WARMUP, MEASURE, DONE }

    private final Settings settings;
    private volatile Stage stage = Stage.WARMUP;

    Window(Settings settings) {
        this.settings = settings;
    }

    Map<String, Object> run() throws Exception {
        boolean smoke = settings.model().equals("smoke");
        int threads = smoke ? 1 : settings.users();
        Phaser phases = new Phaser(threads + 1);
        List<Recorder> recorders = new ArrayList<>();
        List<Thread> workers = new ArrayList<>();
        long setupStart = System.nanoTime();
        for (int i = 0; i < threads; i++) {
            Recorder recorder = new Recorder();
            recorders.add(recorder);
            int index = i;
            workers.add(start(() -> work(index, recorder, phases, smoke)));
        }
        phases.arriveAndAwaitAdvance();  // every thread has its context and its bean proxy
        double setupMs = (System.nanoTime() - setupStart) / 1e6;
        if (!smoke) {
            Thread.sleep(settings.warmupS() * 1000L);
        }
        stage = Stage.MEASURE;
        phases.arriveAndAwaitAdvance();  // the warm-up's last operations have ended
        Figures before = Figures.now(settings.stats());
        long started = System.nanoTime();
        phases.arriveAndAwaitAdvance();  // measuring
        if (!smoke) {
            Thread.sleep(settings.trialS() * 1000L);
            stage = Stage.DONE;
        }
        phases.arriveAndAwaitAdvance();  // the window's last operations have ended
        double seconds = (System.nanoTime() - started) / 1e9;
        Figures after = Figures.measure(null, null).withServerCalls(Figures.now(settings.stats()));
        for (Thread worker : workers) {
            worker.join();
        }
        return Summary.of(settings, recorders, before, after, seconds, setupMs);
    }

    /** A thread's life: connect, then warm up, then measure, meeting the others in between. */
    private void work(int index, Recorder recorder, Phaser phases, boolean smoke) {
        Operation operation;
        try {
            operation = new Operation(settings);
        } catch (Exception e) {
            recorder.failed("Connect", "status", e);
            phases.arriveAndDeregister();
            return;
        }
        try (operation) {
            Mix mix = new Mix(settings.mix(), index);
            phases.arriveAndAwaitAdvance();  // connected
            Recorder unmeasured = new Recorder();
            while (stage == Stage.WARMUP && !smoke) {
                once(operation, mix.next(), unmeasured);
            }
            phases.arriveAndAwaitAdvance();  // warm-up over
            phases.arriveAndAwaitAdvance();  // the figures are taken
            if (smoke) {
                for (int round = 0; round < settings.rounds(); round++) {
                    for (String name : settings.mix().keySet()) {
                        once(operation, name, recorder);
                    }
                }
            } else {
                while (stage == Stage.MEASURE) {
                    once(operation, mix.next(), recorder);
                }
            }
            phases.arriveAndAwaitAdvance();  // window over
        } catch (Exception e) {
            recorder.failed("Close", "status", e);
        }
    }

    private void once(Operation operation, String name, Recorder recorder) {
        long start = System.nanoTime();
        try {
            operation.run(name);
            recorder.good(name, System.nanoTime() - start);
        } catch (Operation.WrongAnswer e) {
            recorder.failed(name, "check", e);
        } catch (Exception e) {
            recorder.failed(name, "status", e);
        }
        if (settings.thinkMs() > 0) {
            try {
                Thread.sleep(settings.thinkMs());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A platform thread, or with VIRTUAL_THREADS=1 a virtual one (JDK 21; the jar is built
     * for 17, so it is asked for by name). */
    private Thread start(Runnable body) throws Exception {
        if (settings.virtualThreads()) {
            Method virtual = Thread.class.getMethod("startVirtualThread", Runnable.class);
            return (Thread) virtual.invoke(null, body);
        }
        Thread thread = new Thread(body, "client-" + System.identityHashCode(body));
        thread.start();
        return thread;
    }

    /** A thread's own fixed stream of transactions (xorshift32, as the k6 contract's). */
    static final class Mix {
        private final String[] names;
        private final int[] weights;
        private final int total;
        private int state;

        Mix(Map<String, Integer> mix, int index) {
            names = mix.keySet().toArray(new String[0]);
            weights = mix.values().stream().mapToInt(Integer::intValue).toArray();
            total = Arrays.stream(weights).sum();
            state = (int) (2463534242L + 7919L * (index + 1));
        }

        String next() {
            if (names.length == 1) {
                return names[0];
            }
            state ^= state << 13;
            state ^= state >>> 17;
            state ^= state << 5;
            double r = Integer.toUnsignedLong(state) / 4294967296.0 * total;
            for (int i = 0; i < names.length; i++) {
                if (r < weights[i]) {
                    return names[i];
                }
                r -= weights[i];
            }
            return names[names.length - 1];
        }
    }

}
