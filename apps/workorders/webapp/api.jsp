<%--
  The work-order app: article 002's ECperf hot spots as five transactions, answered as JSON.
    GET  /workorders/orders/<id>?change=0|1   Review (E5): an order read and stored again; with
                                             change=1 the review changes its status
    GET  /workorders/orders/<id>/lines         ListOrder (E7): an order with its 20 lines
    POST /workorders/orders/<id>/change        ChangeOrder (E8): every line's quantity raised,
                                             the lines taken in the order they are stored
    POST /workorders/orders/<id>/ship          ShipOrder (E8): every line marked shipped, the
                                             lines taken newest first (or sorted, below)
    POST /workorders/work?parts=a,b,c          NewWorkOrder (E1): three parts reserved and a
                                             work order inserted
    GET  /workorders/config                    the design choices it runs with, and the
                                             isolation its connections get
  How each transaction is written is read once from WEB-INF/design.properties; each deployment
  of the app (app.toml, [deployments]) changes one line of it:
    store   = always | changed       write an order back at every commit (the BMP of slide 14)
                                     or only when the review changed it
    loading = per-line | join        an order's lines: their ids, then a query per line (N+1,
                                     slide 15), or one query joining the order and its lines
    access  = as-read | sorted       ShipOrder takes the lines newest first (the opposite order
                                     to ChangeOrder's: slide 16) or sorted by id like it
    locking = table | row            NewWorkOrder locks the part table first (a coarse lock,
                                     slide 7) or only the rows it updates
  A deadlock or a serialization failure rolls the transaction back and runs it again, up to
  five attempts (an application's retry); the answer says how many it took, and a transaction
  still failing answers 500 with the database's reason, so the load script counts it as failed.
--%><%@ page contentType="application/json; charset=UTF-8" trimDirectiveWhitespaces="true"
    import="java.sql.*,java.util.*,javax.naming.InitialContext,javax.sql.DataSource" %><%!
    private static final int ATTEMPTS = 5;
    private static final int LINES = 20; // database/data.sql: 20 lines an order
    private DataSource workorders;
    private final Properties design = new Properties();

    public void jspInit() {
        try (java.io.InputStream in = getServletContext().getResourceAsStream(
                "/WEB-INF/design.properties")) {
            design.load(in);
        } catch (Exception e) {
            throw new IllegalStateException("WEB-INF/design.properties unreadable: " + e);
        }
    }

    private String choice(String key, String... allowed) {
        String value = design.getProperty(key, "");
        if (!Arrays.asList(allowed).contains(value)) {
            throw new IllegalStateException("design.properties: " + key + " = '" + value
                + "'; allowed: " + String.join(", ", allowed));
        }
        return value;
    }

    private DataSource dataSource() throws Exception {
        if (workorders == null) {
            workorders = (DataSource) new InitialContext().lookup(
                "java:jboss/datasources/WorkOrdersDS");
        }
        return workorders;
    }

    private static int number(String text, String what) {
        try {
            return Integer.parseInt(text);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(what + " must be a whole number, got " + text);
        }
    }

    /** One unit of work in one database transaction. */
    private interface Work {
        String run(Connection c) throws SQLException;
    }

    /** Runs work in a transaction; a deadlock (40P01) or serialization failure (40001) is
        rolled back and run again, up to ATTEMPTS times. The answer gets "attempts". */
    private String transaction(Work work) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try (Connection c = dataSource().getConnection()) {
                c.setAutoCommit(false);
                try {
                    String answer = work.run(c);
                    c.commit();
                    return answer.substring(0, answer.length() - 1) + ",\"attempts\":" + attempt + "}";
                } catch (SQLException e) {
                    c.rollback();
                    String state = e.getSQLState();
                    boolean retry = "40P01".equals(state) || "40001".equals(state);
                    if (!retry || attempt == ATTEMPTS) {
                        throw new SQLException("after " + attempt + " attempt(s): " + e.getMessage(), e);
                    }
                } catch (RuntimeException e) {
                    c.rollback();
                    throw e;
                }
            }
        }
    }

    // Review (E5): the order is loaded as an entity would be, the review may change its status,
    // and the order is stored: always (every field written back), or only if a field differs
    // from what was loaded.
    private String review(final int id, final boolean change) throws Exception {
        final boolean always = choice("store", "always", "changed").equals("always");
        return transaction(c -> {
            String status, note;
            java.math.BigDecimal total;
            int customer;
            try (PreparedStatement load = c.prepareStatement(
                    "SELECT customer, status, total, note FROM customer_order WHERE id = ?")) {
                load.setInt(1, id);
                try (ResultSet row = load.executeQuery()) {
                    if (!row.next()) {
                        throw new SQLException("no order " + id, "02000");
                    }
                    customer = row.getInt(1);
                    status = row.getString(2);
                    total = row.getBigDecimal(3);
                    note = row.getString(4);
                }
            }
            String reviewed = change ? (status.equals("open") ? "held" : "open") : status;
            boolean stored = always || !reviewed.equals(status);
            if (stored) {
                try (PreparedStatement store = c.prepareStatement(
                        "UPDATE customer_order SET customer = ?, status = ?, total = ?, note = ? "
                        + "WHERE id = ?")) {
                    store.setInt(1, customer);
                    store.setString(2, reviewed);
                    store.setBigDecimal(3, total);
                    store.setString(4, note);
                    store.setInt(5, id);
                    store.executeUpdate();
                }
            }
            return "{\"order\":" + id + ",\"status\":\"" + reviewed + "\",\"stored\":" + stored + "}";
        });
    }

    // ListOrder (E7): the order and its lines. per-line: the lines' ids, then each line by its
    // key (a finder and a load per bean, N+1); join: one query for the order and its lines.
    private String listing(final int id) throws Exception {
        final boolean perLine = choice("loading", "per-line", "join").equals("per-line");
        return transaction(c -> {
            StringBuilder json = new StringBuilder("{\"order\":").append(id).append(",\"lines\":[");
            int lines = 0;
            if (perLine) {
                List<Integer> ids = new ArrayList<>();
                try (PreparedStatement order = c.prepareStatement(
                         "SELECT status FROM customer_order WHERE id = ?");
                     PreparedStatement find = c.prepareStatement(
                         "SELECT id FROM order_line WHERE order_id = ? ORDER BY id")) {
                    order.setInt(1, id);
                    try (ResultSet row = order.executeQuery()) {
                        if (!row.next()) {
                            throw new SQLException("no order " + id, "02000");
                        }
                    }
                    find.setInt(1, id);
                    try (ResultSet rows = find.executeQuery()) {
                        while (rows.next()) {
                            ids.add(rows.getInt(1));
                        }
                    }
                }
                try (PreparedStatement load = c.prepareStatement(
                        "SELECT item, quantity, price FROM order_line WHERE id = ?")) {
                    for (int line : ids) {
                        load.setInt(1, line);
                        try (ResultSet row = load.executeQuery()) {
                            row.next();
                            line(json, lines++, line, row.getInt(1), row.getInt(2), row.getBigDecimal(3));
                        }
                    }
                }
            } else {
                try (PreparedStatement all = c.prepareStatement(
                        "SELECT l.id, l.item, l.quantity, l.price FROM customer_order o "
                        + "JOIN order_line l ON l.order_id = o.id WHERE o.id = ? ORDER BY l.id")) {
                    all.setInt(1, id);
                    try (ResultSet rows = all.executeQuery()) {
                        while (rows.next()) {
                            line(json, lines++, rows.getInt(1), rows.getInt(2), rows.getInt(3),
                                 rows.getBigDecimal(4));
                        }
                    }
                }
            }
            return json.append("],\"count\":").append(lines).append('}').toString();
        });
    }

    private static void line(StringBuilder json, int n, int id, int item, int quantity,
                             java.math.BigDecimal price) {
        json.append(n == 0 ? "" : ",").append("{\"line\":").append(id).append(",\"item\":")
            .append(item).append(",\"quantity\":").append(quantity).append(",\"price\":")
            .append(price).append('}');
    }

    // ChangeOrder and ShipOrder (E8): every line of the order updated, one statement a line (as
    // a container stores each bean it touched). ChangeOrder goes in stored order; ShipOrder
    // newest first, unless access = sorted.
    private String updateLines(final int id, final boolean ship) throws Exception {
        final boolean sorted = choice("access", "as-read", "sorted").equals("sorted");
        return transaction(c -> {
            List<Integer> ids = new ArrayList<>();
            for (int n = 1; n <= LINES; n++) {
                ids.add(LINES * (id - 1) + n);
            }
            if (ship && !sorted) {
                Collections.reverse(ids);
            }
            String sql = ship ? "UPDATE order_line SET shipped = shipped + 1 WHERE id = ?"
                              : "UPDATE order_line SET quantity = quantity + 1 WHERE id = ?";
            int updated = 0;
            try (PreparedStatement update = c.prepareStatement(sql)) {
                for (int line : ids) {
                    update.setInt(1, line);
                    updated += update.executeUpdate();
                }
            }
            return "{\"order\":" + id + ",\"updated\":" + updated + "}";
        });
    }

    // NewWorkOrder (E1): the parts reserved and the work order inserted. locking = table takes
    // a lock on the whole part table first, which every other NewWorkOrder's lock waits for
    // until commit; row locks only make two orders wait when they share a part.
    private String newWorkOrder(final int[] parts) throws Exception {
        final boolean table = choice("locking", "table", "row").equals("table");
        return transaction(c -> {
            if (table) {
                try (Statement lock = c.createStatement()) {
                    lock.execute("LOCK TABLE part IN SHARE ROW EXCLUSIVE MODE");
                }
            }
            try (PreparedStatement reserve = c.prepareStatement(
                    "UPDATE part SET reserved = reserved + 1 WHERE id = ?")) {
                for (int part : parts) {
                    reserve.setInt(1, part);
                    if (reserve.executeUpdate() != 1) {
                        throw new SQLException("no part " + part, "02000");
                    }
                }
            }
            try (PreparedStatement insert = c.prepareStatement(
                    "INSERT INTO work_order (part_ids, quantity) VALUES (?, 1) RETURNING id")) {
                Integer[] boxed = new Integer[parts.length];
                for (int i = 0; i < parts.length; i++) {
                    boxed[i] = parts[i];
                }
                insert.setArray(1, c.createArrayOf("integer", boxed));
                try (ResultSet key = insert.executeQuery()) {
                    key.next();
                    return "{\"workorder\":" + key.getLong(1) + ",\"parts\":" + parts.length + "}";
                }
            }
        });
    }

    private String config() throws Exception {
        StringBuilder json = new StringBuilder("{");
        for (String key : new TreeSet<>(design.stringPropertyNames())) {
            json.append('"').append(key).append("\":\"").append(design.getProperty(key)).append("\",");
        }
        try (Connection c = dataSource().getConnection();
             Statement show = c.createStatement();
             ResultSet row = show.executeQuery("SHOW transaction_isolation")) {
            row.next();
            return json.append("\"isolation\":\"").append(row.getString(1)).append("\"}").toString();
        }
    }
%><%
    String path = request.getServletPath();
    String info = request.getPathInfo() == null ? "" : request.getPathInfo();
    boolean post = request.getMethod().equals("POST");
    try {
        String answer = null;
        String[] parts = info.split("/");  // "", id, and what follows it
        if (path.equals("/orders") && parts.length >= 2) {
            int id = number(parts[1], "the order id");
            String what = parts.length > 2 ? parts[2] : "";
            if (what.isEmpty() && !post) {
                answer = review(id, "1".equals(request.getParameter("change")));
            } else if (what.equals("lines") && !post) {
                answer = listing(id);
            } else if (what.equals("change") && post) {
                answer = updateLines(id, false);
            } else if (what.equals("ship") && post) {
                answer = updateLines(id, true);
            }
        } else if (path.equals("/work") && post) {
            String[] ids = String.valueOf(request.getParameter("parts")).split(",");
            int[] numbers = new int[ids.length];
            for (int i = 0; i < ids.length; i++) {
                numbers[i] = number(ids[i], "a part id");
            }
            answer = newWorkOrder(numbers);
        } else if (path.equals("/config")) {
            answer = config();
        }
        if (answer == null) {
            response.setStatus(404);
            answer = "{\"error\":\"unknown request\"}";
        }
        out.print(answer);
    } catch (Exception e) {
        response.setStatus(500);
        out.print("{\"error\":\"" + String.valueOf(e.getMessage()).replace("\"", "'")
                  .replace("\n", " ") + "\"}");
    }
%>
