package io.spillway.demo.load;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The load generator's record of acknowledged writes: one line {@code key,value,epochMillis} per SET that the node
 * answered {@code +OK}, appended when the reply arrives (Jepsen's history, reduced to what a verifier needs: every
 * acknowledged key must read back with its value after the cluster heals). Keys and values never contain a comma;
 * in ledger mode every SET writes a fresh key, so a key's acknowledged value is unique. Thread-safe (one lock);
 * flushed every {@link #FLUSH_EVERY} lines and on {@link #close}.
 */
public final class WriteLedger implements AutoCloseable {
  static final int FLUSH_EVERY = 256;

  private final BufferedWriter out;
  private long lines;

  /** Creates (or truncates) the ledger file. */
  public WriteLedger(Path file) throws IOException {
    this.out = Files.newBufferedWriter(file, StandardCharsets.US_ASCII);
  }

  /** Records one acknowledged SET. */
  public synchronized void acknowledged(String key, String value, long epochMillis) {
    try {
      out.write(key);
      out.write(',');
      out.write(value);
      out.write(',');
      out.write(Long.toString(epochMillis));
      out.write('\n');
      if (++lines % FLUSH_EVERY == 0) {
        out.flush();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("ledger write failed", e);
    }
  }

  /** Acknowledged writes so far. */
  public synchronized long size() {
    return lines;
  }

  @Override
  public synchronized void close() throws IOException {
    out.close();
  }

  /**
   * Reads a ledger: key to its last acknowledged value, in file order. A torn last line (the writer was killed) is
   * skipped; any other malformed line fails, naming the line.
   */
  public static Map<String, String> read(Path file) throws IOException {
    final Map<String, String> acked = new LinkedHashMap<>();
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII)) {
      String line;
      String pendingError = null;
      int n = 0;
      while ((line = r.readLine()) != null) {
        n++;
        if (pendingError != null) {
          throw new IllegalArgumentException(pendingError);
        }
        final String[] f = line.split(",", -1);
        if (f.length != 3 || f[0].isEmpty()) {
          pendingError = "ledger " + file + " line " + n + " must be key,value,epochMillis, was '" + line + "'";
          continue;
        }
        acked.put(f[0], f[1]);
      }
    }
    return acked;
  }
}
