<%--
  A shopping cart kept in the HTTP session, the transaction the guide's section 3.2 replicates.
    ?op=add&bytes=N  appends an item of N characters (the cart keeps the last 10) and counts it
    ?op=view         reads the cart without changing it
  The answer says how many items the session has counted, how large the cart is, and which
  node served it: a user whose count does not go on from their last answer lost their session.
--%><%@ page contentType="application/json" pageEncoding="UTF-8" session="true" %><%
    final int kept = 10;
    Integer count = (Integer) session.getAttribute("count");
    String cart = (String) session.getAttribute("cart");
    if (count == null) {
        count = 0;
        cart = "";
    }
    String op = request.getParameter("op");
    if ("add".equals(op)) {
        int bytes = Integer.parseInt(request.getParameter("bytes"));
        if (bytes < 1 || bytes > 100000) {
            response.sendError(400, "bytes: 1 to 100000");
            return;
        }
        String item = String.valueOf((char) ('a' + count % 26)).repeat(bytes);
        cart = cart + item;
        if (cart.length() > kept * bytes) {
            cart = cart.substring(cart.length() - kept * bytes);
        }
        count = count + 1;
        session.setAttribute("count", count);
        session.setAttribute("cart", cart);
    } else if (!"view".equals(op)) {
        response.sendError(400, "op: add or view");
        return;
    }
%>{"count":<%= count %>,"cartChars":<%= cart.length() %>,"node":"<%= System.getProperty("jboss.node.name", "") %>"}
