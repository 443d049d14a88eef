package io.spillway.demo.load;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * The little RESP a blocking client needs (the retrying callers, the leader poller, the ledger verifier): write a
 * command, read a line, read a reply. The open-loop load speaks RESP through Netty's codec instead ({@link LoadLoops}).
 */
public final class RespWire {
  private RespWire() {
  }

  /**
   * A socket connected to {@code target} within {@code timeoutMillis}; a failure names the target ("cannot connect to
   * 127.0.0.1:6379: Connection refused"), which the socket's own message leaves out.
   */
  public static Socket connect(InetSocketAddress target, int timeoutMillis) throws IOException {
    final Socket socket = new Socket();
    try {
      socket.connect(target, timeoutMillis);
      return socket;
    } catch (IOException e) {
      socket.close();
      throw new IOException("cannot connect to " + target.getHostString() + ":" + target.getPort() + ": "
          + e.getMessage(), e);
    }
  }

  /** Writes a command as a RESP array of bulk strings ({@code String} as UTF-8, {@code byte[]} as is). */
  public static void command(OutputStream out, Object... args) throws IOException {
    out.write(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
    for (Object a : args) {
      final byte[] bytes = a instanceof byte[] raw ? raw : ((String) a).getBytes(StandardCharsets.UTF_8);
      out.write(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(bytes);
      out.write('\r');
      out.write('\n');
    }
  }

  /** A reply's first byte ({@code +}, {@code -}, {@code :}, {@code $}, {@code *}) and the rest of its first line. */
  public record Reply(int type, String line) {
    /** Whether the node refused or failed the command ({@code -}). */
    public boolean isError() {
      return type == '-';
    }
  }

  /** Reads one whole reply, skipping a bulk string's or an array's body. */
  public static Reply readReply(InputStream in) throws IOException {
    return readReply(in.read(), in);
  }

  /** Reads the rest of a reply whose first byte, {@code type}, was read already (-1: end of stream). */
  private static Reply readReply(int type, InputStream in) throws IOException {
    if (type < 0) {
      throw new EOFException();
    }
    final String line = readLine(in);
    if (type == '$' || type == '*') {
      skipBody(in, type, Integer.parseInt(line));
    }
    return new Reply(type, line);
  }

  /** Reads up to the next LF; the CR is dropped. */
  public static String readLine(InputStream in) throws IOException {
    final StringBuilder b = new StringBuilder();
    int c;
    while ((c = in.read()) != '\n') {
      if (c < 0) {
        throw new EOFException();
      }
      if (c != '\r') {
        b.append((char) c);
      }
    }
    return b.toString();
  }

  /** Skips the body of a bulk string ({@code $}) or array ({@code *}) whose header announced {@code n}. */
  private static void skipBody(InputStream in, int type, int n) throws IOException {
    if (type == '$') {
      if (n >= 0) {
        in.readNBytes(n + 2);
      }
      return;
    }
    for (int i = 0; i < n; i++) {
      final int t = in.read();
      final String line = readLine(in);
      if (t == '$' || t == '*') {
        skipBody(in, t, Integer.parseInt(line));
      }
    }
  }
}
