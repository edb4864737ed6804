<%--
  The lab's profiled pass (tuninglab/profiling.py): a Java Flight Recorder recording started
  and stopped on request, in the JVM it runs in. Deployed only for the pass, after the timed
  trials, and removed after it. ?action=start&settings=profile starts a recording with that JFC
  configuration; ?action=stop&top=N stops it, reads its execution samples back and answers
  with the N methods most often on top of a sampled stack (self) and anywhere in it (total),
  and every package with how often it was anywhere in one (packages: where a component's time
  went; a few hundred at most).
  The JDK's own jcmd and jfr tools are not in the node's image (a JRE); jdk.jfr is.
--%><%@ page contentType="application/json;charset=UTF-8" trimDirectiveWhitespaces="true"
    import="jdk.jfr.Configuration,jdk.jfr.Recording,jdk.jfr.consumer.*,java.nio.file.*,java.util.*" %><%!
    static String json(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    static String top(Map<String, Integer> counts, int n) {
        List<Map.Entry<String, Integer>> entries = new ArrayList<>(counts.entrySet());
        entries.sort((a, b) -> b.getValue() - a.getValue());
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < Math.min(n, entries.size()); i++) {
            out.append(i == 0 ? "" : ",").append("[").append(json(entries.get(i).getKey()))
               .append(",").append(entries.get(i).getValue()).append("]");
        }
        return out.append("]").toString();
    }
%><%
    String action = request.getParameter("action");
    Recording held = (Recording) application.getAttribute("tl.profiler");
    if ("start".equals(action)) {
        if (held != null) {
            held.close();
        }
        String settings = request.getParameter("settings");
        Recording recording = new Recording(Configuration.getConfiguration(
                settings == null ? "profile" : settings));
        recording.setName("tl-profiled-pass");
        recording.setToDisk(true);
        recording.start();
        application.setAttribute("tl.profiler", recording);
        out.print("{\"started\": true}");
    } else if ("stop".equals(action) && held != null) {
        held.stop();
        Path file = Files.createTempFile("tl-profiled-pass", ".jfr");
        held.dump(file);
        held.close();
        application.removeAttribute("tl.profiler");
        Map<String, Integer> self = new HashMap<>();
        Map<String, Integer> total = new HashMap<>();
        Map<String, Integer> packages = new HashMap<>();
        int samples = 0;
        int truncated = 0;
        for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
            if (!"jdk.ExecutionSample".equals(event.getEventType().getName())
                    || event.getStackTrace() == null) {
                continue;
            }
            samples++;
            RecordedStackTrace stack = event.getStackTrace();
            if (stack.isTruncated()) {
                truncated++;
            }
            Set<String> seen = new HashSet<>();
            Set<String> seenPackages = new HashSet<>();
            boolean first = true;
            for (RecordedFrame frame : stack.getFrames()) {
                String type = frame.getMethod().getType().getName();
                String name = type + "." + frame.getMethod().getName();
                int dot = type.lastIndexOf('.');
                String pkg = dot < 0 ? "(default)" : type.substring(0, dot);
                if (seenPackages.add(pkg)) {
                    packages.merge(pkg, 1, Integer::sum);
                }
                if (first) {
                    self.merge(name, 1, Integer::sum);
                    first = false;
                }
                if (seen.add(name)) {
                    total.merge(name, 1, Integer::sum);
                }
            }
        }
        Files.deleteIfExists(file);
        String n = request.getParameter("top");
        int limit = n == null ? 25 : Integer.parseInt(n);
        out.print("{\"samples\": " + samples + ", \"truncated\": " + truncated
                + ", \"self\": " + top(self, limit) + ", \"total\": " + top(total, limit)
                + ", \"packages\": " + top(packages, Integer.MAX_VALUE) + "}");
    } else {
        response.setStatus(409);
        out.print("{\"error\": " + json("no recording to stop, or an unknown action: " + action)
                + "}");
    }
%>
