<%--
  The shop's two transactions, as JSON:
    GET  /shop/products/<id>             Browse: the product, its five latest purchases and the
                                         ten products closest to it in price (ranked in memory
                                         over the whole catalogue, as a recommendation would be:
                                         the server's own work per request, not the database's)
    POST /shop/orders?product=<id>&quantity=<n>   Order: a purchase recorded, the product's count raised,
                                         in one database transaction
  Any failure answers 500 with the reason, so the load script counts it as failed.
--%><%@ page contentType="application/json; charset=UTF-8" trimDirectiveWhitespaces="true"
    import="java.sql.*,java.util.*,javax.naming.InitialContext,javax.sql.DataSource" %><%!
    private DataSource shop;
    // The catalogue's prices by product id - 1, read once (prices never change here).
    private volatile double[] prices;

    private DataSource dataSource() throws Exception {
        if (shop == null) {
            shop = (DataSource) new InitialContext().lookup("java:jboss/datasources/ShopDS");
        }
        return shop;
    }

    private static int number(String text, String what) {
        try {
            return Integer.parseInt(text);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(what + " must be a whole number, got " + text);
        }
    }

    private double[] prices(Connection c) throws SQLException {
        double[] known = prices;
        if (known == null) {
            List<Double> read = new ArrayList<>();
            try (Statement all = c.createStatement();
                 ResultSet rows = all.executeQuery("SELECT price FROM product ORDER BY id")) {
                while (rows.next()) {
                    read.add(rows.getDouble(1));
                }
            }
            known = new double[read.size()];
            for (int i = 0; i < known.length; i++) {
                known[i] = read.get(i);
            }
            prices = known;
        }
        return known;
    }

    // The ten products whose price is closest to the product's, by sorting the whole catalogue.
    private static String similar(final double[] prices, int id) {
        final double target = prices[id - 1];
        Integer[] order = new Integer[prices.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, new Comparator<Integer>() {
            public int compare(Integer a, Integer b) {
                return Double.compare(Math.abs(prices[a] - target), Math.abs(prices[b] - target));
            }
        });
        StringBuilder ids = new StringBuilder();
        for (int i = 0, n = 0; i < order.length && n < 10; i++) {
            if (order[i] != id - 1) {
                ids.append(n++ == 0 ? "" : ",").append(order[i] + 1);
            }
        }
        return ids.toString();
    }

    private String browse(int id) throws Exception {
        try (Connection c = dataSource().getConnection();
             PreparedStatement product = c.prepareStatement(
                 "SELECT name, price, sold FROM product WHERE id = ?");
             PreparedStatement latest = c.prepareStatement(
                 "SELECT id, quantity FROM purchase WHERE product_id = ? ORDER BY placed DESC LIMIT 5")) {
            product.setInt(1, id);
            StringBuilder json = new StringBuilder();
            try (ResultSet row = product.executeQuery()) {
                if (!row.next()) {
                    return null;
                }
                json.append("{\"id\":").append(id).append(",\"name\":\"").append(row.getString(1))
                    .append("\",\"price\":").append(row.getBigDecimal(2)).append(",\"sold\":")
                    .append(row.getInt(3)).append(",\"latest\":[");
            }
            latest.setInt(1, id);
            try (ResultSet rows = latest.executeQuery()) {
                for (int n = 0; rows.next(); n++) {
                    json.append(n == 0 ? "" : ",").append("{\"order\":").append(rows.getLong(1))
                        .append(",\"quantity\":").append(rows.getInt(2)).append('}');
                }
            }
            double[] all = prices(c);
            json.append("],\"similar\":[");
            if (id <= all.length) {
                json.append(similar(all, id));
            }
            return json.append("]}").toString();
        }
    }

    private String order(int id, int quantity) throws Exception {
        try (Connection c = dataSource().getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement insert = c.prepareStatement(
                     "INSERT INTO purchase (product_id, quantity) VALUES (?, ?) RETURNING id");
                 PreparedStatement update = c.prepareStatement(
                     "UPDATE product SET sold = sold + ? WHERE id = ?")) {
                insert.setInt(1, id);
                insert.setInt(2, quantity);
                long order;
                try (ResultSet key = insert.executeQuery()) {
                    key.next();
                    order = key.getLong(1);
                }
                update.setInt(1, quantity);
                update.setInt(2, id);
                update.executeUpdate();
                c.commit();
                return "{\"order\":" + order + ",\"product\":" + id + ",\"quantity\":" + quantity + "}";
            } catch (Exception e) {
                c.rollback();
                throw e;
            }
        }
    }
%><%
    String path = request.getServletPath();
    try {
        String answer;
        if (path.equals("/products")) {
            String info = request.getPathInfo();
            answer = browse(number(info == null ? "" : info.substring(1), "the product id"));
            if (answer == null) {
                response.setStatus(404);
                answer = "{\"error\":\"no such product\"}";
            }
        } else if (path.equals("/orders") && request.getMethod().equals("POST")) {
            answer = order(number(request.getParameter("product"), "product"),
                           number(request.getParameter("quantity"), "quantity"));
        } else {
            response.setStatus(404);
            answer = "{\"error\":\"unknown request\"}";
        }
        out.print(answer);
    } catch (Exception e) {
        response.setStatus(500);
        out.print("{\"error\":\"" + String.valueOf(e.getMessage()).replace("\"", "'") + "\"}");
    }
%>
