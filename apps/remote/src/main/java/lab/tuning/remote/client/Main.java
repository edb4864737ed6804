package lab.tuning.remote.client;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * A client JVM of its own (article 004): N threads, each calling the server over remote+http
 * for one window, then a summary in the lab's contract after the marker the engine looks for.
 *
 * <p>With the argument {@code serve PORT} the JVM stays up for a whole run and runs one window
 * for each request on 127.0.0.1:PORT: a line of tab-separated KEY=VALUE pairs in, the window's
 * output back (tuninglab/drivers/java_client.py sends them). So the client's code stays
 * compiled from one window to the next, as the server's does, and a window's exec lasts as
 * long as its measured seconds. Without arguments it runs one window from its environment.
 * Bad settings are answered with one line saying what is wrong (status 2 without a server).
 */
public final class Main {

    static final String SUMMARY_MARKER = "--- tuninglab summary ---";

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("serve")) {
            serve(Integer.parseInt(args[1]));
            return;
        }
        try {
            System.out.println(window(Settings.fromEnvironment()));
        } catch (IllegalArgumentException e) {
            System.err.println("remote client: " + e.getMessage());
            System.exit(2);
        }
        System.exit(0);  // the remoting endpoint's threads would keep the JVM alive
    }

    private static String window(Settings settings) throws Exception {
        return "\n" + SUMMARY_MARKER + "\n" + Json.write(new Window(settings).run());
    }

    /** One window a request, one request at a time, until the JVM is stopped. */
    private static void serve(int port) throws Exception {
        try (ServerSocket server = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            System.out.println("remote client: serving windows on 127.0.0.1:" + port);
            while (true) {
                try (Socket socket = server.accept();
                     BufferedReader in = new BufferedReader(new InputStreamReader(
                             socket.getInputStream(), StandardCharsets.UTF_8));
                     Writer out = new OutputStreamWriter(socket.getOutputStream(),
                             StandardCharsets.UTF_8)) {
                    String line = in.readLine();
                    String answer;
                    try {
                        answer = window(Settings.from(pairs(line == null ? "" : line)));
                    } catch (IllegalArgumentException e) {
                        answer = "remote client: " + e.getMessage();
                    } catch (Exception e) {  // the next request gets a working client
                        answer = "remote client: the window failed: " + e;
                    }
                    out.write(answer + "\n");
                }
            }
        }
    }

    private static Map<String, String> pairs(String line) {
        Map<String, String> values = new HashMap<>();
        for (String pair : line.split("\t")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                values.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        return values;
    }
}
