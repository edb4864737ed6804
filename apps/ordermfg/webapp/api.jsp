<%--
  Four of orderentry's transactions (apps/orderentry/API.md), in plain JDBC, so that
  workloads/mix.js drives this app as it drives orderentry:
    orders domain         NewOrder (POST /orders), CustomerStatus (GET /customers/{id}/orders)
    manufacturing domain  ScheduleWorkOrder (POST /workorders), ItemBrowse (GET /items)
  Each domain reads and writes through its own pool (WEB-INF/classes/domains.properties), and
  GET /where answers with the address of the database each pool reaches, which a run reads
  back before it measures. Ping answers without a database.
  Locks are taken in a fixed order (inventory rows by item id), so two work orders never
  deadlock: a deadlock would be a failed request, and a failed request invalidates a trial.
--%><%@ page contentType="application/json" pageEncoding="UTF-8" session="false"
    import="java.io.*,java.math.*,java.sql.*,java.util.*,javax.naming.InitialContext"
    import="javax.sql.DataSource,jakarta.json.*"
%><%!
    private volatile DataSource orders, mfg;

    private DataSource pool(String domain) throws Exception {
        if (orders == null) {
            Properties names = new Properties();
            ClassLoader loader = getClass().getClassLoader();
            try (InputStream in = loader.getResourceAsStream("domains.properties")) {
                names.load(in);
            }
            InitialContext jndi = new InitialContext();
            mfg = (DataSource) jndi.lookup(names.getProperty("mfg"));
            orders = (DataSource) jndi.lookup(names.getProperty("orders"));
        }
        return "orders".equals(domain) ? orders : mfg;
    }

    private static long number(JsonObject o, String key) {
        return o.getJsonNumber(key).longValue();
    }

    private static String quoted(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private String where() throws Exception {
        StringBuilder out = new StringBuilder("{");
        for (String domain : new String[] {"orders", "mfg"}) {
            try (Connection c = pool(domain).getConnection();
                 Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT host(inet_server_addr())")) {
                r.next();
                out.append(out.length() > 1 ? "," : "").append(quoted(domain)).append(':')
                   .append(quoted(r.getString(1)));
            }
        }
        return out.append('}').toString();
    }

    private String customerStatus(long customer, int page, int size) throws Exception {
        try (Connection c = pool("orders").getConnection()) {
            BigDecimal balance;
            try (PreparedStatement p = c.prepareStatement(
                    "SELECT balance FROM customer WHERE id = ?")) {
                p.setLong(1, customer);
                try (ResultSet r = p.executeQuery()) {
                    if (!r.next()) return null;
                    balance = r.getBigDecimal(1);
                }
            }
            StringBuilder out = new StringBuilder("{\"customerId\":" + customer + ",\"balance\":"
                    + balance + ",\"page\":" + page + ",\"size\":" + size + ",\"orders\":[");
            try (PreparedStatement p = c.prepareStatement("SELECT id, entered, status, total"
                    + " FROM orders WHERE customer_id = ? ORDER BY entered DESC, id DESC"
                    + " LIMIT ? OFFSET ?")) {
                p.setLong(1, customer);
                p.setInt(2, size);
                p.setLong(3, (long) page * size);
                try (ResultSet r = p.executeQuery()) {
                    for (int n = 0; r.next(); n++) {
                        String entered = r.getTimestamp(2).toLocalDateTime().toString();
                        out.append(n > 0 ? "," : "").append("{\"orderId\":").append(r.getLong(1))
                           .append(",\"entered\":").append(quoted(entered))
                           .append(",\"status\":").append(quoted(r.getString(3)))
                           .append(",\"total\":").append(r.getBigDecimal(4)).append('}');
                    }
                }
            }
            return out.append("]}").toString();
        }
    }

    private String newOrder(JsonObject in) throws Exception {
        long customer = number(in, "customerId");
        JsonArray lines = in.getJsonArray("lines");
        try (Connection c = pool("orders").getConnection()) {
            c.setAutoCommit(false);
            try {
                BigDecimal discount, gross = BigDecimal.ZERO;
                try (PreparedStatement p = c.prepareStatement(
                        "SELECT discount FROM customer WHERE id = ?")) {
                    p.setLong(1, customer);
                    try (ResultSet r = p.executeQuery()) {
                        if (!r.next()) return null;
                        discount = r.getBigDecimal(1);
                    }
                }
                BigDecimal[] prices = new BigDecimal[lines.size()];
                try (PreparedStatement p = c.prepareStatement(
                        "SELECT price FROM item WHERE id = ?")) {
                    for (int i = 0; i < prices.length; i++) {
                        JsonObject line = lines.getJsonObject(i);
                        p.setLong(1, number(line, "itemId"));
                        try (ResultSet r = p.executeQuery()) {
                            if (!r.next()) return null;
                            prices[i] = r.getBigDecimal(1);
                        }
                        BigDecimal quantity = BigDecimal.valueOf(number(line, "quantity"));
                        gross = gross.add(prices[i].multiply(quantity));
                    }
                }
                BigDecimal total = gross.multiply(BigDecimal.ONE.subtract(discount))
                                        .setScale(2, RoundingMode.HALF_UP);
                long order;
                try (PreparedStatement p = c.prepareStatement("INSERT INTO orders (id,"
                        + " customer_id, entered, status, total, version) VALUES (nextval("
                        + "'orders_seq'), ?, localtimestamp, 'new', ?, 0) RETURNING id")) {
                    p.setLong(1, customer);
                    p.setBigDecimal(2, total);
                    try (ResultSet r = p.executeQuery()) {
                        r.next();
                        order = r.getLong(1);
                    }
                }
                try (PreparedStatement p = c.prepareStatement("INSERT INTO order_line (id,"
                        + " order_id, line_no, item_id, quantity, price) VALUES"
                        + " (nextval('order_line_seq'), ?, ?, ?, ?, ?)")) {
                    for (int i = 0; i < prices.length; i++) {
                        JsonObject line = lines.getJsonObject(i);
                        p.setLong(1, order);
                        p.setInt(2, i + 1);
                        p.setLong(3, number(line, "itemId"));
                        p.setLong(4, number(line, "quantity"));
                        p.setBigDecimal(5, prices[i]);
                        p.addBatch();
                    }
                    p.executeBatch();
                }
                c.commit();
                return "{\"orderId\":" + order + ",\"lines\":" + prices.length
                       + ",\"total\":" + total + "}";
            } catch (Exception e) {
                c.rollback();
                throw e;
            }
        }
    }

    private String itemBrowse(int category, int page, int size) throws Exception {
        StringBuilder out = new StringBuilder("{\"category\":" + category + ",\"page\":" + page
                                              + ",\"items\":[");
        try (Connection c = pool("mfg").getConnection();
             PreparedStatement p = c.prepareStatement("SELECT i.id, i.name, i.price, v.on_hand"
                     + " FROM item i JOIN inventory v ON v.item_id = i.id WHERE i.category = ?"
                     + " ORDER BY i.id LIMIT ? OFFSET ?")) {
            p.setInt(1, category);
            p.setInt(2, size);
            p.setLong(3, (long) page * size);
            try (ResultSet r = p.executeQuery()) {
                for (int n = 0; r.next(); n++) {
                    out.append(n > 0 ? "," : "").append("{\"itemId\":").append(r.getLong(1))
                       .append(",\"name\":").append(quoted(r.getString(2)))
                       .append(",\"price\":").append(r.getBigDecimal(3))
                       .append(",\"onHand\":").append(r.getInt(4)).append('}');
                }
            }
        }
        return out.append("]}").toString();
    }

    private String scheduleWorkOrder(JsonObject in) throws Exception {
        long assembly = number(in, "itemId");
        long quantity = number(in, "quantity");
        try (Connection c = pool("mfg").getConnection()) {
            c.setAutoCommit(false);
            try {
                long workOrder;
                try (PreparedStatement p = c.prepareStatement("INSERT INTO work_order (id,"
                        + " item_id, quantity, status, created) SELECT nextval('work_order_seq'),"
                        + " id, ?, 'scheduled', localtimestamp FROM item"
                        + " WHERE id = ? AND kind = 'assembly' RETURNING id")) {
                    p.setLong(1, quantity);
                    p.setLong(2, assembly);
                    try (ResultSet r = p.executeQuery()) {
                        if (!r.next()) return null;
                        workOrder = r.getLong(1);
                    }
                }
                int purchaseOrders = 0;
                try (PreparedStatement components = c.prepareStatement("SELECT b.component_id,"
                        + " b.quantity * ?, v.on_hand, v.reorder_level, i.supplier_id FROM bom b"
                        + " JOIN inventory v ON v.item_id = b.component_id"
                        + " JOIN item i ON i.id = b.component_id WHERE b.assembly_id = ?"
                        + " ORDER BY b.component_id FOR NO KEY UPDATE OF v");
                     PreparedStatement take = c.prepareStatement(
                        "UPDATE inventory SET on_hand = ? WHERE item_id = ?");
                     PreparedStatement order = c.prepareStatement("WITH po AS (INSERT INTO"
                        + " purchase_order (id, supplier_id, created, status) VALUES (nextval("
                        + "'purchase_order_seq'), ?, localtimestamp, 'open') RETURNING id)"
                        + " INSERT INTO purchase_order_line (id, po_id, item_id, quantity)"
                        + " SELECT nextval('purchase_order_line_seq'), id, ?, ? FROM po")) {
                    components.setLong(1, quantity);
                    components.setLong(2, assembly);
                    try (ResultSet r = components.executeQuery()) {
                        while (r.next()) {
                            long item = r.getLong(1);
                            int onHand = r.getInt(3) - r.getInt(2), reorder = r.getInt(4);
                            if (onHand < reorder) {
                                int units = 4 * reorder - onHand;
                                order.setLong(1, r.getLong(5));
                                order.setLong(2, item);
                                order.setInt(3, units);
                                order.executeUpdate();
                                onHand += units;
                                purchaseOrders++;
                            }
                            take.setInt(1, onHand);
                            take.setLong(2, item);
                            take.executeUpdate();
                        }
                    }
                }
                c.commit();
                return "{\"workOrderId\":" + workOrder + ",\"purchaseOrders\":" + purchaseOrders
                       + "}";
            } catch (Exception e) {
                c.rollback();
                throw e;
            }
        }
    }

    private static int parameter(HttpServletRequest request, String name, int fallback, int max) {
        String value = request.getParameter(name);
        int n = value == null ? fallback : Integer.parseInt(value);
        if (n < 0 || n > max) throw new IllegalArgumentException(name + ": 0 to " + max);
        return n;
    }
%><%
    String path = request.getServletPath()
                  + (request.getPathInfo() == null ? "" : request.getPathInfo());
    String method = request.getMethod();
    String answer;
    int status = 200;
    try {
        if (path.equals("/ping")) {
            answer = "{\"status\":\"ok\"}";
        } else if (path.equals("/where")) {
            answer = where();
        } else if (path.matches("/customers/[0-9]+/orders") && method.equals("GET")) {
            answer = customerStatus(Long.parseLong(path.split("/")[2]),
                                    parameter(request, "page", 0, 100000),
                                    Math.max(1, parameter(request, "size", 10, 100)));
        } else if (path.equals("/items") && method.equals("GET")) {
            answer = itemBrowse(parameter(request, "category", 0, 20),
                                parameter(request, "page", 0, 100000),
                                Math.max(1, parameter(request, "size", 10, 100)));
        } else if (path.equals("/orders") && method.equals("POST")) {
            answer = newOrder(Json.createReader(request.getInputStream()).readObject());
            status = 201;
        } else if (path.equals("/workorders") && method.equals("POST")) {
            answer = scheduleWorkOrder(Json.createReader(request.getInputStream()).readObject());
            status = 201;
        } else {
            response.sendError(404, "not a transaction of this app: " + method + " " + path);
            return;
        }
    } catch (IllegalArgumentException | JsonException | NullPointerException
             | ClassCastException e) {
        response.sendError(400, String.valueOf(e.getMessage()));
        return;
    }
    if (answer == null) {
        response.sendError(404, "no such customer, item or assembly");
        return;
    }
    response.setStatus(status);
%><%= answer %>
