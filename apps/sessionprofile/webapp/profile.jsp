<%--
  A session with one large attribute that never changes and one small one that changes on
  every request: the case the guide's section 3.2 has in mind for replicating changed
  attributes only.
    ?chars=N  the first request of a session stores a profile of N characters (1 to 200000);
              every request adds one to the session's visit count
  The answer gives the count, the profile's length and the node that served it: a user whose
  count does not go on from their last answer, or whose profile is not the length they asked
  for, lost their session. Both attributes are Strings and Integers, which WildFly knows to be
  immutable: reading the profile never marks it changed, so only the count is written again.
--%><%@ page contentType="application/json" pageEncoding="UTF-8" session="true" %><%
    String profile = (String) session.getAttribute("profile");
    Integer visits = (Integer) session.getAttribute("visits");
    if (profile == null) {
        int chars;
        try {
            chars = Integer.parseInt(request.getParameter("chars"));
        } catch (NumberFormatException e) {
            chars = -1;
        }
        if (chars < 1 || chars > 200000) {
            response.sendError(400, "chars: 1 to 200000");
            return;
        }
        StringBuilder text = new StringBuilder(chars);
        for (int i = 0; i < chars; i++) {
            text.append((char) ('a' + i % 26));
        }
        profile = text.toString();
        visits = 0;
        session.setAttribute("profile", profile);
    }
    visits = visits + 1;
    session.setAttribute("visits", visits);
%>{"visits":<%= visits %>,"profileChars":<%= profile.length() %>,"node":"<%= System.getProperty("jboss.node.name", "") %>"}
