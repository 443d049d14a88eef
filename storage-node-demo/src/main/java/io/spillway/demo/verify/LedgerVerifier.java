package io.spillway.demo.verify;

import io.spillway.demo.load.RespWire;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Reads every acknowledged key of a write ledger back from one node (the {@code verify} mode's check, as a Jepsen
 * checker reads the final state after the nemesis heals): pipelined {@code GET}s in batches, a {@code -BUSY} or
 * {@code -ERR} reply retried until the deadline. A key answered nil is <em>lost</em>, a different value
 * <em>changed</em>, a key never answered within the deadline <em>unreadable</em>. Every socket read has a timeout.
 */
public final class LedgerVerifier {
  static final int BATCH = 256;

  /** Outcome of one node's check. */
  public record Result(String target, long checked, long lost, long changed, long unreadable, List<String> examples) {
    /** Whether every acknowledged key read back with its value. */
    public boolean ok() {
      return lost == 0 && changed == 0 && unreadable == 0;
    }
  }

  private LedgerVerifier() {
  }

  /**
   * Checks {@code acked} (key to value) against the node at {@code target}, retrying errors until {@code timeoutMs}.
   */
  public static Result check(InetSocketAddress target, Map<String, String> acked, long timeoutMs) throws IOException {
    final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    long lost = 0;
    long changed = 0;
    final List<String> examples = new ArrayList<>();
    List<Map.Entry<String, String>> todo = new ArrayList<>(acked.entrySet());
    while (!todo.isEmpty() && System.nanoTime() - deadline < 0) {
      final List<Map.Entry<String, String>> retry = new ArrayList<>();
      try (Socket s = RespWire.connect(target, 5_000)) {
        s.setSoTimeout((int) Math.max(1_000, Math.min(30_000, timeoutMs)));
        final OutputStream out = new BufferedOutputStream(s.getOutputStream(), 64 << 10);
        final InputStream in = new BufferedInputStream(s.getInputStream(), 64 << 10);
        for (int from = 0; from < todo.size(); from += BATCH) {
          final List<Map.Entry<String, String>> batch = todo.subList(from, Math.min(todo.size(), from + BATCH));
          for (Map.Entry<String, String> e : batch) {
            get(out, e.getKey());
          }
          out.flush();
          for (Map.Entry<String, String> e : batch) {
            final Reply r = read(in);
            if (r.error != null) {
              retry.add(e);
            } else if (r.value == null) {
              lost++;
              example(examples, "lost " + e.getKey());
            } else if (!r.value.equals(e.getValue())) {
              changed++;
              example(examples, "changed " + e.getKey() + ": acked " + e.getValue() + ", read " + r.value);
            }
          }
        }
      } catch (IOException e) {
        // the node is not reachable (yet) or the connection broke mid-batch: the whole check starts over
        lost = 0;
        changed = 0;
        examples.clear();
        retry.clear();
        retry.addAll(acked.entrySet());
        sleepQuietly(500);
      }
      todo = retry;
      if (!todo.isEmpty()) {
        sleepQuietly(200);
      }
    }
    return new Result(target.getHostString() + ":" + target.getPort(), acked.size(), lost, changed, todo.size(),
        List.copyOf(examples));
  }

  private record Reply(String value, String error) {
  }

  private static void example(List<String> examples, String s) {
    if (examples.size() < 5) {
      examples.add(s);
    }
  }

  private static void get(OutputStream out, String key) throws IOException {
    final byte[] k = key.getBytes(StandardCharsets.UTF_8);
    out.write(("*2\r\n$3\r\nGET\r\n$" + k.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.write(k);
    out.write('\r');
    out.write('\n');
  }

  private static Reply read(InputStream in) throws IOException {
    final int type = in.read();
    final String line = RespWire.readLine(in);
    switch (type) {
      case '$' -> {
        final int n = Integer.parseInt(line);
        if (n < 0) {
          return new Reply(null, null);
        }
        final byte[] b = in.readNBytes(n + 2);
        if (b.length < n + 2) {
          throw new EOFException();
        }
        return new Reply(new String(b, 0, n, StandardCharsets.UTF_8), null);
      }
      case '-' -> {
        return new Reply(null, line);
      }
      case -1 -> throw new EOFException();
      default -> throw new IOException("unexpected reply to GET: " + (char) type + line);
    }
  }

  private static void sleepQuietly(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
