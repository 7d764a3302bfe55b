// JDBC (PostgreSQL's driver, pgjdbc) against a server: prepared statements with typed
// parameters and NULLs, batches, the server-side prepared statements pgjdbc switches to
// after a few executions, transactions (commit, rollback, error recovery, a savepoint),
// SQLSTATEs on SQLException, and a result read with a fetch size inside a REPEATABLE READ,
// READ ONLY transaction: pgjdbc then sends Execute with a row limit and fetches the rows
// in pieces, and the transaction must see one unchanging state (on DuetDB, the block's
// snapshot; a commit made meanwhile stays unseen). Then DatabaseMetaData, as tools
// (DBeaver, schema migrators) read it: tables, columns, primary keys, indexes, foreign keys
// both ways, schemas, table types, type info, functions, SQL keywords.
// Run: java -cp /usr/share/java/postgresql.jar tests/clients/JdbcTest.java HOST PORT
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Properties;

public class JdbcTest {
  static int checks = 0;
  static int failures = 0;

  static void check(String name, Object expected, Object actual) {
    checks++;
    if (!Objects.equals(expected, actual)) {
      failures++;
      System.out.println("FAIL " + name + "\n  expected: " + expected + "\n  got:      " + actual);
    }
  }

  static Connection connect(String host, String port) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    p.setProperty("connectTimeout", "10");
    p.setProperty("socketTimeout", "60");
    return DriverManager.getConnection("jdbc:postgresql://" + host + ":" + port + "/postgres", p);
  }

  static String sqlState(Statement st, String sql) {
    try {
      st.execute(sql);
      return "no error";
    } catch (SQLException e) {
      return e.getSQLState();
    }
  }

  // The values of `columns` (by label) of every row of rs, "|"-joined per row.
  static List<String> rows(ResultSet rs, String... columns) throws SQLException {
    List<String> out = new ArrayList<>();
    try (rs) {
      while (rs.next()) {
        StringBuilder b = new StringBuilder();
        for (String col : columns) b.append(b.length() == 0 ? "" : "|").append(rs.getString(col));
        out.add(b.toString());
      }
    }
    return out;
  }

  static void metadata(Connection c, Statement st) throws SQLException {
    st.execute("DROP TABLE IF EXISTS jdbc_child");
    st.execute("DROP TABLE IF EXISTS jdbc_parent");
    st.execute("CREATE TABLE jdbc_parent (a integer, b integer, name varchar(20) NOT NULL, PRIMARY KEY (a, b))");
    st.execute("CREATE UNIQUE INDEX jdbc_parent_name ON jdbc_parent (name)");
    st.execute("CREATE TABLE jdbc_child (id bigint PRIMARY KEY, pa integer, pb integer, "
        + "CONSTRAINT jdbc_child_fk FOREIGN KEY (pa, pb) REFERENCES jdbc_parent ON DELETE CASCADE)");
    st.execute("CREATE OR REPLACE FUNCTION jdbc_twice(x integer) RETURNS integer LANGUAGE sql AS 'SELECT 2 * x'");
    DatabaseMetaData md = c.getMetaData();
    check("getTables", List.of("jdbc_child|TABLE", "jdbc_parent|TABLE"),
        rows(md.getTables(null, "public", "jdbc_%", new String[] {"TABLE"}), "TABLE_NAME", "TABLE_TYPE"));
    check("getColumns", List.of("a|4|int4|0|1", "b|4|int4|0|2", "name|12|varchar|0|3"),
        rows(md.getColumns(null, "public", "jdbc_parent", "%"), "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME", "NULLABLE",
            "ORDINAL_POSITION"));
    check("getColumns: size", List.of("20"), rows(md.getColumns(null, "public", "jdbc_parent", "name"), "COLUMN_SIZE"));
    // update_rule 3 = importedKeyNoAction, delete_rule 0 = importedKeyCascade
    List<String> keys = List.of("jdbc_parent|a|jdbc_child|pa|1|3|0|jdbc_child_fk|jdbc_parent_pkey",
        "jdbc_parent|b|jdbc_child|pb|2|3|0|jdbc_child_fk|jdbc_parent_pkey");
    String[] keyColumns = {"PKTABLE_NAME", "PKCOLUMN_NAME", "FKTABLE_NAME", "FKCOLUMN_NAME", "KEY_SEQ", "UPDATE_RULE",
        "DELETE_RULE", "FK_NAME", "PK_NAME"};
    check("getImportedKeys", keys, rows(md.getImportedKeys(null, "public", "jdbc_child"), keyColumns));
    check("getExportedKeys", keys, rows(md.getExportedKeys(null, "public", "jdbc_parent"), keyColumns));
    check("getCrossReference", keys,
        rows(md.getCrossReference(null, "public", "jdbc_parent", null, "public", "jdbc_child"), keyColumns));
    check("getPrimaryKeys", List.of("a|1|jdbc_parent_pkey", "b|2|jdbc_parent_pkey"),
        rows(md.getPrimaryKeys(null, "public", "jdbc_parent"), "COLUMN_NAME", "KEY_SEQ", "PK_NAME"));
    check("getIndexInfo", List.of("jdbc_parent_name|f|1|name|A", "jdbc_parent_pkey|f|1|a|A", "jdbc_parent_pkey|f|2|b|A"),
        rows(md.getIndexInfo(null, "public", "jdbc_parent", false, false), "INDEX_NAME", "NON_UNIQUE", "ORDINAL_POSITION",
            "COLUMN_NAME", "ASC_OR_DESC"));
    check("getBestRowIdentifier", List.of("a", "b"),
        rows(md.getBestRowIdentifier(null, "public", "jdbc_parent", DatabaseMetaData.bestRowSession, true),
            "COLUMN_NAME"));
    check("getSchemas has public", true, rows(md.getSchemas(), "TABLE_SCHEM").contains("public"));
    check("getTableTypes has TABLE and VIEW", true,
        rows(md.getTableTypes(), "TABLE_TYPE").containsAll(List.of("TABLE", "VIEW")));
    check("getTypeInfo has int4 and varchar", true,
        rows(md.getTypeInfo(), "TYPE_NAME").containsAll(List.of("int4", "varchar")));
    check("getFunctions", List.of("jdbc_twice"), rows(md.getFunctions(null, "public", "jdbc_twice"), "FUNCTION_NAME"));
    check("database product", "PostgreSQL", md.getDatabaseProductName());
    // The keywords PostgreSQL has beyond SQL:2003's (pg_get_keywords()).
    List<String> keywords = List.of(md.getSQLKeywords().split(","));
    check("getSQLKeywords", true, keywords.containsAll(List.of("analyze", "ilike", "limit", "returning")));
    st.execute("DROP FUNCTION jdbc_twice(integer)");
    st.execute("DROP TABLE jdbc_child");
    st.execute("DROP TABLE jdbc_parent");
  }

  public static void main(String[] args) throws Exception {
    String host = args[0], port = args[1];
    try (Connection c = connect(host, port); Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS jdbc_t");
      st.execute("DROP TABLE IF EXISTS jdbc_rows");
      st.execute("CREATE TABLE jdbc_t (id integer PRIMARY KEY, big bigint, amount numeric(10,2), "
          + "name text, flag boolean, at timestamp, day date)");

      // Typed parameters and NULLs, in a batch.
      try (PreparedStatement ins = c.prepareStatement("INSERT INTO jdbc_t VALUES (?, ?, ?, ?, ?, ?, ?)")) {
        for (int i = 1; i <= 3; i++) {
          ins.setInt(1, i);
          ins.setLong(2, 10_000_000_000L * i);
          ins.setBigDecimal(3, new BigDecimal(i + ".25"));
          ins.setString(4, "name " + i);
          ins.setBoolean(5, i % 2 == 1);
          ins.setTimestamp(6, Timestamp.valueOf("2026-11-2" + i + " 10:30:00"));
          ins.setDate(7, Date.valueOf("2026-01-0" + i));
          ins.addBatch();
        }
        ins.setInt(1, 4);
        ins.setNull(2, Types.BIGINT);
        ins.setNull(3, Types.NUMERIC);
        ins.setNull(4, Types.VARCHAR);
        ins.setNull(5, Types.BOOLEAN);
        ins.setNull(6, Types.TIMESTAMP);
        ins.setNull(7, Types.DATE);
        ins.addBatch();
        int[] counts = ins.executeBatch();
        check("batch of four inserts", 4, counts.length);
      }
      try (PreparedStatement q = c.prepareStatement(
          "SELECT big, amount, name, flag, at, day FROM jdbc_t WHERE id = ?")) {
        q.setInt(1, 2);
        try (ResultSet rs = q.executeQuery()) {
          check("row found", true, rs.next());
          check("bigint", 20_000_000_000L, rs.getLong(1));
          check("numeric", new BigDecimal("2.25"), rs.getBigDecimal(2));
          check("text", "name 2", rs.getString(3));
          check("boolean", false, rs.getBoolean(4));
          check("timestamp", Timestamp.valueOf("2026-11-22 10:30:00"), rs.getTimestamp(5));
          check("date", Date.valueOf("2026-01-02"), rs.getDate(6));
          check("one row", false, rs.next());
        }
        q.setInt(1, 4);
        try (ResultSet rs = q.executeQuery()) {
          rs.next();
          rs.getLong(1);
          check("NULL bigint", true, rs.wasNull());
          check("NULL text", null, rs.getString(3));
          check("NULL timestamp", null, rs.getTimestamp(5));
        }
        // pgjdbc turns a statement executed this often into a named server-side one.
        long sum = 0;
        for (int i = 0; i < 10; i++) {
          q.setInt(1, 1 + i % 3);
          try (ResultSet rs = q.executeQuery()) {
            rs.next();
            sum += rs.getLong(1);
          }
        }
        check("repeated prepared statement", 10_000_000_000L * (1 + 2 + 3 + 1 + 2 + 3 + 1 + 2 + 3 + 1), sum);
      }

      // Errors carry PostgreSQL's SQLSTATEs and leave the connection usable.
      check("duplicate key", "23505", sqlState(st, "INSERT INTO jdbc_t (id) VALUES (1)"));
      check("division by zero", "22012", sqlState(st, "SELECT 1 / (id - id) FROM jdbc_t"));
      check("undefined table", "42P01", sqlState(st, "SELECT * FROM jdbc_missing"));
      try (ResultSet rs = st.executeQuery("SELECT count(*) FROM jdbc_t")) {
        rs.next();
        check("usable after errors", 4, rs.getInt(1));
      }

      // Transactions: commit, rollback, and an error that fails the transaction.
      c.setAutoCommit(false);
      st.execute("UPDATE jdbc_t SET name = 'committed' WHERE id = 1");
      c.commit();
      st.execute("UPDATE jdbc_t SET name = 'rolled back' WHERE id = 1");
      c.rollback();
      check("in failed transaction", "22012", sqlState(st, "SELECT 1 / 0"));
      check("then refused", "25P02", sqlState(st, "SELECT 1"));
      c.rollback();
      // A savepoint: an error after it is undone by rolling back to it, and the
      // transaction goes on.
      st.execute("UPDATE jdbc_t SET name = 'before savepoint' WHERE id = 2");
      java.sql.Savepoint savepoint = c.setSavepoint();
      st.execute("UPDATE jdbc_t SET name = 'after savepoint' WHERE id = 2");
      check("error after the savepoint", "23505", sqlState(st, "INSERT INTO jdbc_t (id) VALUES (1)"));
      c.rollback(savepoint);
      c.releaseSavepoint(c.setSavepoint());
      c.commit();
      c.setAutoCommit(true);
      try (ResultSet rs = st.executeQuery("SELECT name FROM jdbc_t WHERE id = 1")) {
        rs.next();
        check("commit kept, rollback undone", "committed", rs.getString(1));
      }
      try (ResultSet rs = st.executeQuery("SELECT name FROM jdbc_t WHERE id = 2")) {
        rs.next();
        check("rolled back to the savepoint", "before savepoint", rs.getString(1));
      }

      // A fetch size inside a REPEATABLE READ, READ ONLY transaction: rows in pieces, and
      // one unchanging view of the table throughout.
      st.execute("CREATE TABLE jdbc_rows (k integer)");
      StringBuilder values = new StringBuilder("INSERT INTO jdbc_rows VALUES (1)");
      for (int k = 2; k <= 2500; k++) values.append(", (").append(k).append(")");
      st.execute(values.toString());
      try (Connection writer = connect(host, port); Statement w = writer.createStatement()) {
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        c.setReadOnly(true);
        try (Statement r = c.createStatement()) {
          try (ResultSet rs = r.executeQuery("SELECT count(*) FROM jdbc_rows")) {  // the view is taken
            rs.next();
            check("count at the start", 2500, rs.getInt(1));
          }
          w.execute("INSERT INTO jdbc_rows VALUES (9999)");
          r.setFetchSize(300);
          int rows = 0;
          long total = 0;
          int previous = 0;
          boolean ordered = true;
          try (ResultSet rs = r.executeQuery("SELECT k FROM jdbc_rows ORDER BY k")) {
            while (rs.next()) {
              int k = rs.getInt(1);
              ordered &= k > previous;
              previous = k;
              total += k;
              rows++;
              if (rows == 1000) w.execute("INSERT INTO jdbc_rows VALUES (10000)");  // between pieces
            }
          }
          check("rows read in pieces", 2500, rows);
          check("their sum", 2500L * 2501 / 2, total);
          check("in order", true, ordered);
          check("a write in a read-only transaction", "25006", sqlState(r, "INSERT INTO jdbc_rows VALUES (1)"));
        }
        c.rollback();
        c.setReadOnly(false);
        c.setAutoCommit(true);
        c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
      }
      try (ResultSet rs = st.executeQuery("SELECT count(*) FROM jdbc_rows")) {
        rs.next();
        check("the writer's rows after the transaction", 2502, rs.getInt(1));
      }
      st.execute("DROP TABLE jdbc_rows");
      st.execute("DROP TABLE jdbc_t");
      metadata(c, st);
    }
    System.out.println("jdbc: " + (checks - failures) + " passed, " + failures + " failed");
    System.exit(failures == 0 ? 0 : 1);
  }
}
